// Things the executable carries inside itself. build.mjs defines __TIMETRACK_EMBEDDED__
// when it bundles; when running from source (tsx, tests) they are read from the tree.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The web app's table as JSON, bodies in base64 (dist/web/assets.json and the executable). */
export interface SerializedAsset {
  path: string;
  type: string;
  immutable: boolean;
  etag: string;
  body: string;
  gzip: string;
  br: string;
}

interface Embedded {
  version: string;
  commit: string;
  migrations: Migration[];
  bcryptWorker: string;
  checkpointWorker: string;
  shortListWorker: string;
  reportWorker: string;
  csvWorker: string;
  importWriter: string;
  web: SerializedAsset[];
}

declare const __TIMETRACK_EMBEDDED__: Embedded | undefined;

const ROOT = join(__dirname, '..');

/** True inside the bundle (and so inside the executable). */
export const isBundled = typeof __TIMETRACK_EMBEDDED__ !== 'undefined';

/** The ordered migrations of sql/: files named NNN_name.sql. */
export function readMigrationsFrom(dir: string): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{3}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((file) => ({
      version: Number(file.slice(0, 3)),
      name: file.replace(/\.sql$/, ''),
      sql: readFileSync(join(dir, file), 'utf8'),
    }));
}

export function migrations(): Migration[] {
  return isBundled
    ? (__TIMETRACK_EMBEDDED__ as Embedded).migrations
    : readMigrationsFrom(join(ROOT, 'sql'));
}

/** package.json's version: embedded in the bundle, read from the tree otherwise. */
export function packageVersion(): string {
  if (isBundled) return (__TIMETRACK_EMBEDDED__ as Embedded).version;
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string })
    .version;
}

export function version(): { version: string; commit: string } {
  if (isBundled) {
    const { version, commit } = __TIMETRACK_EMBEDDED__ as Embedded;
    return { version, commit };
  }
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: 'pipe' })
      .toString()
      .trim();
  } catch {
    // not a git checkout
  }
  return { version: packageVersion(), commit };
}

/** Source of the bcrypt worker, run with `new Worker(source, { eval: true })`. */
export function bcryptWorkerSource(): string {
  if (isBundled) return (__TIMETRACK_EMBEDDED__ as Embedded).bcryptWorker;
  return bundleWorker('src/auth/bcrypt-worker.ts');
}

/** The CSV worker's entry point (importers/csv-thread.ts); build.mjs bundles it. */
export const CSV_WORKER = 'src/importers/csv-worker.ts';

let csvWorker: string | undefined;

/** Source of the CSV worker of `admin import-from`, run the same way (bundled once). */
export function csvWorkerSource(): string {
  if (isBundled) return (__TIMETRACK_EMBEDDED__ as Embedded).csvWorker;
  csvWorker ??= bundleWorker(CSV_WORKER);
  return csvWorker;
}

/** The entry points of the workers with a database connection (build.mjs bundles them). */
export const CHECKPOINT_WORKER = 'src/db/checkpoint-worker.ts';
export const SHORT_LIST_WORKER = 'src/db/short-list-worker.ts';
export const REPORT_WORKER = 'src/reports/report-worker.ts';
export const IMPORT_WRITER = 'src/admin/import-writer-worker.ts';

/** Source of the WAL checkpoint worker (db/checkpointer.ts), run the same way. */
export const checkpointWorkerSource = () =>
  databaseWorkerSource(CHECKPOINT_WORKER, (e) => e.checkpointWorker);

/** Source of the short-list worker (db/short-lists.ts), run the same way. */
export const shortListWorkerSource = () =>
  databaseWorkerSource(SHORT_LIST_WORKER, (e) => e.shortListWorker);

/** Source of the large-report worker (db/text-streams.ts, reports/store.ts), run the same way. */
export const reportWorkerSource = () => databaseWorkerSource(REPORT_WORKER, (e) => e.reportWorker);

/** Source of the import's writer thread (admin/import-writer.ts), run the same way. */
export const importWriterSource = () => databaseWorkerSource(IMPORT_WRITER, (e) => e.importWriter);

/** Each worker's source bundled from source, once per process (a pool starts several). */
const bundling = new Map<string, Promise<string>>();

/**
 * A worker with a database connection, started once the server answers requests (the
 * checkpoints a moment after start-up, the short lists when first needed): embedded, or
 * from source bundled asynchronously (once), so that answering goes on meanwhile.
 */
function databaseWorkerSource(entry: string, embedded: (e: Embedded) => string): Promise<string> {
  if (isBundled) return Promise.resolve(embedded(__TIMETRACK_EMBEDDED__ as Embedded));
  let source = bundling.get(entry);
  if (!source) {
    const { build } = require('esbuild') as typeof import('esbuild');
    source = build({ ...workerBuild(entry), write: false }).then((out) => bundledText(entry, out));
    // A failed build is not kept: the next start tries again.
    source.catch(() => bundling.delete(entry));
    bundling.set(entry, source);
  }
  return source;
}

/** build.mjs's esbuild settings for a worker's entry point. */
const workerBuild = (entry: string) => ({
  entryPoints: [join(ROOT, entry)],
  bundle: true,
  platform: 'node' as const,
  format: 'cjs' as const,
  logLevel: 'silent' as const,
});

/** A worker bundled on the fly: from source at run time, and by build.mjs. */
export function bundleWorker(entry: string): string {
  const { buildSync } = require('esbuild') as typeof import('esbuild');
  return bundledText(entry, buildSync({ ...workerBuild(entry), write: false }));
}

/** The one file esbuild wrote for `entry`, as text. */
function bundledText(entry: string, out: { outputFiles?: { text: string }[] }): string {
  const file = out.outputFiles?.[0];
  if (!file) throw new Error(`bundling ${entry} produced no output`);
  return file.text;
}

/** Where `node build.mjs --web-only` (npm start, npm test) writes the web app's table. */
export const WEB_ASSETS_FILE = join(ROOT, 'dist/web/assets.json');

/**
 * The web app's table (src/web-build.ts): embedded in the executable; from source, read
 * from dist/web/assets.json, or undefined when that file is missing (web-assets.ts then
 * builds it from `sourceRoot`).
 */
export function webAssetTable(): SerializedAsset[] | undefined {
  if (isBundled) return (__TIMETRACK_EMBEDDED__ as Embedded).web;
  if (!existsSync(WEB_ASSETS_FILE)) return undefined;
  return JSON.parse(readFileSync(WEB_ASSETS_FILE, 'utf8')) as SerializedAsset[];
}

/** The checkout when running from source (the web app is built from its src/web). */
export const sourceRoot = ROOT;
