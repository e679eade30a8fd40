// Where better-sqlite3's native addon comes from. From source, better-sqlite3 finds it
// in node_modules itself; the single executable carries it as an asset (issue 6) and
// sets the loader below before opening any database.

import { dirname, join } from 'node:path';

// biome-ignore lint/suspicious/noExplicitAny: the addon object is opaque to us.
type Addon = any;
let loader: (() => Addon) | undefined;
let loaded: Addon | undefined;
let loadedFrom: string | undefined;

/** `load` loads the addon and tells `from` which file it came from. */
export function setNativeBindingLoader(load: (from: (file: string) => void) => Addon): void {
  loader = () =>
    load((file) => {
      loadedFrom = file;
    });
}

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
