// Inside the single executable (docs/executable.md) better-sqlite3's native addon travels
// as a SEA asset: the operating system can only load a shared library from a file, so
// it is written once to a cache directory and loaded from there. Outside the executable
// this does nothing and better-sqlite3 finds its addon in node_modules as usual.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { setNativeBindingLoader } from './native';

/** The asset name build.mjs gives better_sqlite3.node in sea-config.json. */
export const ADDON_ASSET = 'better_sqlite3.node';

/** The addon could not be put anywhere loadable: one line for the user, exit 1. */
export class NativeAddonError extends Error {}

/** Registers the embedded addon's loader when running as the executable; cheap otherwise. */
export function useEmbeddedNativeAddon(): void {
  const sea = seaModule();
  if (!sea?.isSea()) return;
  setNativeBindingLoader(() => {
    const addon = Buffer.from(sea.getRawAsset(ADDON_ASSET) as ArrayBuffer);
    const file = cachedAddonFile(addon, process.env);
    const module = { exports: {} };
    process.dlopen(module, file);
    return module.exports;
  });
}

function seaModule(): typeof import('node:sea') | undefined {
  try {
    return require('node:sea') as typeof import('node:sea');
  } catch {
    return undefined; // a Node without SEA support cannot be the executable
  }
}

/**
 * Candidate cache roots, in order: $TIMETRACK_CACHE_DIR, $XDG_CACHE_HOME/timetrack,
 * ~/.cache/timetrack. Each gets a <content hash> subdirectory, so executables of
 * different versions never load each other's addon.
 */
export function cacheRoots(env: NodeJS.ProcessEnv): string[] {
  const roots: string[] = [];
  if (env.TIMETRACK_CACHE_DIR) roots.push(env.TIMETRACK_CACHE_DIR);
  if (env.XDG_CACHE_HOME) roots.push(join(env.XDG_CACHE_HOME, 'timetrack'));
  const home = env.HOME || safeHomedir();
  if (home) roots.push(join(home, '.cache', 'timetrack'));
  return roots;
}

/** The path of the addon in the first usable cache root, writing it there if missing. */
export function cachedAddonFile(addon: Buffer, env: NodeJS.ProcessEnv): string {
  const hash = createHash('sha256').update(addon).digest('hex').slice(0, 16);
  const roots = cacheRoots(env);
  for (const root of roots) {
    const dir = join(root, hash);
    const file = join(dir, ADDON_ASSET);
    if (existsSync(file)) return file; // the hash in the path vouches for the content
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // A temporary name + rename: a concurrent start (serve and an admin command) never
      // sees a half-written library.
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, addon, { mode: 0o500 });
      try {
        renameSync(temp, file);
      } catch (err) {
        rmSync(temp, { force: true });
        if (!existsSync(file)) throw err;
      }
      return file;
    } catch {
      // not writable: try the next root
    }
  }
  throw new NativeAddonError(
    `no writable cache directory for the SQLite addon (tried ${roots.join(', ') || 'none: HOME is not set'}); set TIMETRACK_CACHE_DIR to a writable directory`,
  );
}

function safeHomedir(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}
