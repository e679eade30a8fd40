// Where the native code comes from: better-sqlite3's addon and our SQLite extension
// (src/db/native/json_rows.c, which writes lists' JSON: jsonRows in sql-json.ts). From
// source, better-sqlite3 finds its addon in node_modules itself and the extension is
// dist/native/json_rows.so, compiled by build.mjs (npm start and npm test run it first);
// the single executable carries both as assets (issue 6) and sets the loaders below
// before opening any database.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

// biome-ignore lint/suspicious/noExplicitAny: the addon object is opaque to us.
type Addon = any;
let loader: (() => Addon) | undefined;
let loaded: Addon | undefined;
let loadedFrom: string | undefined;

/**
 * The extension's file name (build.mjs gives it the same): SQLite finds its entry point,
 * sqlite3_jsonrows_init, from it.
 */
export const SQLITE_EXTENSION_NAME =
  process.platform === 'darwin' ? 'json_rows.dylib' : 'json_rows.so';
let extensionLoader: (() => string) | undefined;
let extensionFile: string | undefined;

/** `load` loads the addon and tells `from` which file it came from. */
export function setNativeBindingLoader(load: (from: (file: string) => void) => Addon): void {
  loader = () =>
    load((file) => {
      loadedFrom = file;
    });
}

/** `file` gives the extension's file (the executable writes its copy out first). */
export function setSqliteExtensionLoader(file: () => string): void {
  extensionLoader = file;
}

/**
 * What a worker thread needs to load the native code the thread that starts it loaded
 * (a bundle cannot find either the way the sources do): open.ts workerOpenOptions.
 */
export interface NativeFiles {
  addonFile: string;
  extensionFile: string;
}

export const nativeFiles = (): NativeFiles => ({
  addonFile: nativeBindingFile(),
  extensionFile: sqliteExtensionFile(),
});

/**
 * The file of the addon this process uses, for a worker thread to load it too (a bundle
 * cannot find it the way better-sqlite3 does): the executable's copy, else node_modules'.
 */
export function nativeBindingFile(): string {
  nativeBinding();
  if (loadedFrom) return loadedFrom;
  const root = dirname(require.resolve('better-sqlite3/package.json'));
  return join(root, 'build', 'Release', 'better_sqlite3.node');
}

export function nativeBinding(): Addon | undefined {
  if (!loader) return undefined;
  loaded ??= loader();
  return loaded;
}

/** A library could not be found or put anywhere loadable: one line for the user, exit 1. */
export class NativeAddonError extends Error {}

/** The SQLite extension's file, for every connection (and worker thread) to load. */
export function sqliteExtensionFile(): string {
  extensionFile ??= extensionLoader ? extensionLoader() : builtExtension();
  return extensionFile;
}

/** dist/native's, compiled by build.mjs; a clear error when it has not been. */
function builtExtension(): string {
  const file = join(__dirname, '..', '..', 'dist', 'native', SQLITE_EXTENSION_NAME);
  if (!existsSync(file)) {
    throw new NativeAddonError(
      `${file} is missing: run \`npm run build:web\` (npm start and npm test do) to compile src/db/native/json_rows.c`,
    );
  }
  return file;
}

/**
 * better-sqlite3's addon loaded from `file`, for a worker thread: the bundle cannot find
 * it, so the thread that starts the worker passes its file (nativeFiles).
 */
export function loadAddon(file: string): unknown {
  const addon = { exports: {} };
  process.dlopen(addon, file);
  return addon.exports;
}
