// Builds the web app (src/web/) into the asset table the server serves from memory:
// esbuild bundles src/web/main.tsx (and its CSS) into content-hashed files, index.html
// names them, and every file is precompressed with gzip and brotli here, once. Used by
// build.mjs (`--web-only` writes dist/web/assets.json; the full build embeds the table
// in the executable) and, from source, by src/embedded.ts when dist/web is missing.
// Synchronous on purpose: the server loads it while starting.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { StaticAsset } from './http/static';

/** The first page's JavaScript may weigh this much gzipped; the build fails above. */
export const JS_BUDGET_GZIP_BYTES = 60 * 1024;

/** The table as JSON: bodies in base64 (dist/web/assets.json and the executable). */
export interface SerializedAsset {
  path: string;
  type: string;
  immutable: boolean;
  etag: string;
  body: string;
  gzip: string;
  br: string;
}

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
  let js = '';
  let css = '';
  for (const file of result.outputFiles) {
    const path = file.path.slice(file.path.indexOf('/assets/'));
    if (path.endsWith('.map')) continue;
    if (path.endsWith('.js')) js = path;
    if (path.endsWith('.css')) css = path;
    assets.push(asset(path, Buffer.from(file.contents), true));
  }
  if (!js) throw new Error('the web build produced no JavaScript');
  const jsGzipBytes = assets
    .filter((a) => a.path.endsWith('.js'))
    .reduce((n, a) => n + a.gzip.length, 0);
  if (jsGzipBytes > JS_BUDGET_GZIP_BYTES) {
    throw new Error(
      `the web app's JavaScript is ${jsGzipBytes} bytes gzipped, over the budget of ${JS_BUDGET_GZIP_BYTES}`,
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
  return { assets, jsGzipBytes };
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
