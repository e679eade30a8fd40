// Builds the web app (src/web/) into the asset table the server serves from memory:
// esbuild bundles src/web/main.tsx (and its CSS) into content-hashed files, index.html
// names them, and every file is precompressed with gzip and brotli here, once. Used by
// build.mjs (`--web-only` writes dist/web/assets.json; the full build embeds the table
// in the executable) and, from source, by src/web-assets.ts when dist/web is missing.
// Synchronous on purpose: the server loads it while starting.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { SerializedAsset } from './embedded';
import type { StaticAsset } from './http/static';

/** The first page's JavaScript may weigh this much gzipped; the build fails above. */
export const JS_BUDGET_GZIP_BYTES = 60 * 1024;
/** The whole app's JavaScript (every lazily loaded page too), gzipped. */
export const APP_JS_BUDGET_GZIP_BYTES = 150 * 1024;

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
};

function asset(path: string, body: Buffer, immutable: boolean): StaticAsset {
  const ext = path.slice(path.lastIndexOf('.'));
  return {
    path,
    type: TYPES[ext] ?? 'application/octet-stream',
    immutable,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    body,
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
  };
}

export interface WebBuild {
  assets: StaticAsset[];
  /** Gzipped bytes of the JavaScript the first page loads. */
  jsGzipBytes: number;
  /** Gzipped bytes of all the app's JavaScript, lazily loaded pages included. */
  appJsGzipBytes: number;
}

/** An output file and the chunks it imports statically (those load with it). */
type Outputs = Record<string, { entryPoint?: string; imports: { path: string; kind: string }[] }>;

/** The entry's output and every chunk it loads before running: the first page's JS. */
function firstPageFiles(outputs: Outputs, entry: string): string[] {
  const files = new Set([entry]);
  for (const file of files) {
    for (const i of outputs[file]?.imports ?? []) {
      if (i.kind === 'import-statement') files.add(i.path);
    }
  }
  return [...files];
}

/** Bundles src/web of `root`; throws when the first page's JS is over the budget. */
export function buildWeb(root: string): WebBuild {
  // Required, not imported: the executable never builds and must not carry esbuild.
  const { buildSync } = require('esbuild') as typeof import('esbuild');
  const result = buildSync({
    entryPoints: [join(root, 'src/web/main.tsx')],
    outdir: '/assets',
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    // Pages that need a large library (the reports' chart, the profile's bcrypt) are
    // imported when opened, so the first page stays small.
    splitting: true,
    metafile: true,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(root, 'src/web/tsconfig.json'),
    minify: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const assets: StaticAsset[] = [];
  const outputs = (result.metafile?.outputs ?? {}) as Outputs;
  // The metafile names outputs relative to the working directory: `../../assets/x.js`.
  const served = (path: string) => path.slice(path.indexOf('/assets/'));
  // main.tsx's own output: a page loaded lazily (import()) is an entry point of its own in
  // the metafile too, and may come first (the Import page's did).
  const entry = Object.keys(outputs).find(
    (o) => outputs[o]?.entryPoint?.endsWith('src/web/main.tsx') && o.endsWith('.js'),
  );
  if (!entry) throw new Error('the web build produced no JavaScript');
  const js = served(entry);
  let css = '';
  for (const file of result.outputFiles) {
    const path = served(file.path);
    if (path.endsWith('.map')) continue;
    if (path.endsWith('.css')) css = path;
    assets.push(asset(path, Buffer.from(file.contents), true));
  }
  const gzipOf = (paths: string[]) =>
    assets.filter((a) => paths.includes(a.path)).reduce((n, a) => n + a.gzip.length, 0);
  const jsGzipBytes = gzipOf(firstPageFiles(outputs, entry).map(served));
  const appJsGzipBytes = gzipOf(assets.map((a) => a.path).filter((p) => p.endsWith('.js')));
  if (jsGzipBytes > JS_BUDGET_GZIP_BYTES) {
    throw new Error(
      `the web app's first page JavaScript is ${jsGzipBytes} bytes gzipped, over the budget of ${JS_BUDGET_GZIP_BYTES}`,
    );
  }
  if (appJsGzipBytes > APP_JS_BUDGET_GZIP_BYTES) {
    throw new Error(
      `the web app's JavaScript is ${appJsGzipBytes} bytes gzipped in all, over the budget of ${APP_JS_BUDGET_GZIP_BYTES}`,
    );
  }
  const html = [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<title>timetrack</title>',
    `<link rel="icon" href="data:,">`,
    css ? `<link rel="stylesheet" href="${css}">` : '',
    `<script type="module" src="${js}"></script>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    '<noscript>timetrack needs JavaScript.</noscript>',
    '</body>',
    '</html>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
  assets.push(asset('/index.html', Buffer.from(`${html}\n`), false));
  return { assets, jsGzipBytes, appJsGzipBytes };
}

export function serializeAssets(assets: StaticAsset[]): SerializedAsset[] {
  return assets.map((a) => ({
    ...a,
    body: a.body.toString('base64'),
    gzip: a.gzip.toString('base64'),
    br: a.br.toString('base64'),
  }));
}

export function deserializeAssets(list: SerializedAsset[]): StaticAsset[] {
  return list.map((a) => ({
    ...a,
    body: Buffer.from(a.body, 'base64'),
    gzip: Buffer.from(a.gzip, 'base64'),
    br: Buffer.from(a.br, 'base64'),
  }));
}
