// npm run build: makes dist/timetrack, one self-contained executable (docs/executable.md).
//
//   1. esbuild bundles src/main.ts and everything it imports into dist/timetrack.cjs; the
//      sql/ migrations, the bundled workers (bcrypt, WAL checkpoints, short lists, large
//      reports, the import's CSV parser and writer), the version and the commit go in as
//      __TIMETRACK_EMBEDDED__ (read by src/embedded.ts).
//   2. Node's own Single Executable Application support (Node 20, fully offline) turns
//      the bundle plus better-sqlite3's native addon and our SQLite extension (SEA
//      assets, unpacked at run time by src/db/native-sea.ts) into a blob, which postject
//      injects into a copy of the running `node` binary.
//
// The SQLite extension (src/db/native/json_rows.c, docs/architecture.md) is compiled by
// the C compiler `npm ci` already needs for better-sqlite3 ($CC, else cc) against the
// SQLite headers better-sqlite3 ships, into dist/native/: also by `--web-only`, so that
// npm start and npm test run from the sources with it.
//
// The web app (src/web, docs/web.md) is built first by src/web-build.ts: hashed files,
// precompressed, over-budget JavaScript fails the build. `node build.mjs --web-only`
// (npm start, npm test) stops after writing that table to dist/web/assets.json; the full
// build embeds the table in the executable as part of __TIMETRACK_EMBEDDED__.
//
// Why not pkg: it needs downloads (patched Node base binaries, or Node 22 for --sea);
// see docs/executable.md.
//
// Other platforms: the executable is a copy of the Node binary that runs this script,
// carrying the better_sqlite3.node built by `npm ci` for that same Node. To make a
// macOS or Windows (or arm64) executable, run `npm ci && npm run build` ON that
// platform with a Node 20 of that platform; the script adapts where the platforms
// differ (macOS: Mach-O segment NODE_SEA and ad-hoc re-signing; Windows: .exe suffix,
// no strip). Cross-building from here is not supported: the blob's code cache and the
// native addon are both specific to the platform and Node version.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { tsImport } from 'tsx/esm/api';

const ROOT = dirname(fileURLToPath(import.meta.url));
const DIST = join(ROOT, 'dist');
const BUNDLE = join(DIST, 'timetrack.cjs');
const BLOB = join(DIST, 'sea-prep.blob');
const SEA_CONFIG = join(DIST, 'sea-config.json');
const EXE = join(DIST, process.platform === 'win32' ? 'timetrack.exe' : 'timetrack');
const require = (await import('node:module')).createRequire(import.meta.url);
const ADDON = join(
  dirname(require.resolve('better-sqlite3/package.json')),
  'build/Release/better_sqlite3.node',
);
const EXTENSION_SOURCE = join(ROOT, 'src/db/native/json_rows.c');
const EXTENSION = join(
  DIST,
  'native',
  process.platform === 'darwin' ? 'json_rows.dylib' : 'json_rows.so', // = SQLITE_EXTENSION_NAME
);
// Must match NODE_SEA_FUSE in Node's source: postject flips it to tell Node a blob is there.
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const started = Date.now();
const step = (what) => process.stdout.write(`build: ${what}\n`);
const webOnly = process.argv.includes('--web-only');

// src/web-build.ts compiled here by esbuild itself (tsx's loader costs half a second).
const webBuild = await (async () => {
  const out = await build({
    entryPoints: [join(ROOT, 'src/web-build.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    write: false,
    logLevel: 'warning',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', out.outputFiles[0].text)(
    module,
    module.exports,
    require,
  );
  return module.exports;
})();
const WEB_DIR = join(DIST, 'web');
let web;
try {
  web = webBuild.buildWeb(ROOT);
} catch (err) {
  process.stderr.write(`build: the web app: ${err.message}\n`);
  process.exit(1);
}
const writeWeb = () => {
  // Test processes may be reading assets.json meanwhile: it is replaced in one rename.
  rmSync(join(WEB_DIR, 'assets'), { recursive: true, force: true });
  mkdirSync(join(WEB_DIR, 'assets'), { recursive: true });
  // The files themselves, to look at; the server reads only assets.json.
  for (const a of web.assets) writeFileSync(join(WEB_DIR, a.path), a.body);
  const tmp = join(WEB_DIR, `assets.json.${process.pid}`);
  writeFileSync(tmp, JSON.stringify(webBuild.serializeAssets(web.assets)));
  renameSync(tmp, join(WEB_DIR, 'assets.json'));
};
/** Compiles the SQLite extension unless dist/native has it from this very source. */
const buildExtension = () => {
  try {
    if (statSync(EXTENSION).mtimeMs >= statSync(EXTENSION_SOURCE).mtimeMs) return;
  } catch {
    // not built yet
  }
  mkdirSync(dirname(EXTENSION), { recursive: true });
  const headers = join(dirname(require.resolve('better-sqlite3/package.json')), 'deps/sqlite3');
  // A temporary name + rename: test processes may be loading the library meanwhile.
  const tmp = `${EXTENSION}.${process.pid}`;
  const shared =
    process.platform === 'darwin' ? ['-dynamiclib', '-undefined', 'dynamic_lookup'] : ['-shared'];
  try {
    execFileSync(
      process.env.CC || 'cc',
      ['-O2', '-fPIC', '-Wall', ...shared, '-I', headers, '-o', tmp, EXTENSION_SOURCE],
      { stdio: 'inherit' },
    );
  } catch (err) {
    process.stderr.write(
      `build: compiling ${EXTENSION_SOURCE} failed (${err.message.split('\n')[0]}); a C compiler is needed, as for better-sqlite3 (Debian: apt install gcc libc6-dev)\n`,
    );
    process.exit(1);
  }
  renameSync(tmp, EXTENSION);
  step(`SQLite extension: ${EXTENSION}`);
};
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
step(
  `web app: ${web.assets.length} files, first page's JS ${kb(web.jsGzipBytes)} gzipped (budget ${kb(webBuild.JS_BUDGET_GZIP_BYTES)}), all ${kb(web.appJsGzipBytes)} (budget ${kb(webBuild.APP_JS_BUDGET_GZIP_BYTES)})`,
);
if (webOnly) {
  writeWeb();
  buildExtension();
  process.exit(0);
}

// The same code that serves the tree at run time (src/embedded.ts) gathers what the
// executable carries, so the two can never disagree.
const embedded = await tsImport('./src/embedded.ts', import.meta.url);
const { version, commit } = embedded.version();
const migrations = embedded.readMigrationsFrom(join(ROOT, 'sql'));
const bcryptWorker = embedded.bcryptWorkerSource();
const checkpointWorker = embedded.bundleWorker(embedded.CHECKPOINT_WORKER);
const shortListWorker = embedded.bundleWorker(embedded.SHORT_LIST_WORKER);
const reportWorker = embedded.bundleWorker(embedded.REPORT_WORKER);
const csvWorker = embedded.bundleWorker(embedded.CSV_WORKER);
const importWriter = embedded.bundleWorker(embedded.IMPORT_WRITER);

rmSync(DIST, { recursive: true, force: true });
mkdirSync(DIST, { recursive: true });
writeWeb();
buildExtension();

step(`bundling src/main.ts (timetrack ${version}, commit ${commit})`);
await build({
  entryPoints: [join(ROOT, 'src/main.ts')],
  outfile: BUNDLE,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs', // a SEA's main script must be CommonJS
  // src/embedded.ts only requires esbuild when NOT bundled (to bundle the worker from
  // source); the executable never takes that branch and must not carry esbuild.
  external: ['esbuild'],
  // yargs' CommonJS build, as `tsx src/main.ts` runs it: its ESM build (what an `import`
  // resolves to) wraps help text by characters, splitting words (yargs issue 2112).
  alias: { yargs: require.resolve('yargs') },
  define: {
    __TIMETRACK_EMBEDDED__: JSON.stringify({
      version,
      commit,
      migrations,
      bcryptWorker,
      checkpointWorker,
      shortListWorker,
      reportWorker,
      csvWorker,
      importWriter,
      web: webBuild.serializeAssets(web.assets),
    }),
  },
  minifySyntax: true,
  minifyWhitespace: true, // smaller and faster to parse; names stay readable in stacks
  legalComments: 'none',
  logLevel: 'warning',
});

step('making the SEA blob');
writeFileSync(
  SEA_CONFIG,
  `${JSON.stringify(
    {
      main: BUNDLE,
      output: BLOB,
      disableExperimentalSEAWarning: true,
      useCodeCache: true, // compiled once here: faster start (same platform + Node only)
      // names = ADDON_ASSET and EXTENSION_ASSET in src/db/native-sea.ts
      assets: { 'better_sqlite3.node': ADDON, [basename(EXTENSION)]: EXTENSION },
    },
    null,
    2,
  )}\n`,
);
execFileSync(process.execPath, ['--experimental-sea-config', SEA_CONFIG], { stdio: 'inherit' });

step(`injecting it into a copy of ${process.execPath}`);
copyFileSync(process.execPath, EXE);
chmodSync(EXE, 0o755);
if (process.platform === 'darwin') {
  execFileSync('codesign', ['--remove-signature', EXE]);
} else if (process.platform === 'linux' && process.env.TIMETRACK_NO_STRIP !== '1') {
  // Node's debug symbols are ~12 MB nobody needs in production; strip must come before
  // the injection, which it would otherwise remove.
  try {
    execFileSync('strip', [EXE], { stdio: 'pipe' });
  } catch {
    step('strip not available: keeping the symbols');
  }
}
// postject's CLI in a child process: its ELF writer prints harmless "Can't find string
// offset for section name" warnings by the dozen, shown only if the injection fails.
try {
  execFileSync(
    process.execPath,
    [
      require.resolve('postject/dist/cli.js'),
      EXE,
      'NODE_SEA_BLOB',
      BLOB,
      '--sentinel-fuse',
      SEA_FUSE,
      ...(process.platform === 'darwin' ? ['--macho-segment-name', 'NODE_SEA'] : []),
    ],
    { stdio: 'pipe' },
  );
} catch (err) {
  process.stderr.write(`${err.stdout ?? ''}${err.stderr ?? ''}`);
  throw err;
}
if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', EXE]);

const size = (statSync(EXE).size / 1e6).toFixed(1);
step(`${EXE} (${size} MB) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
