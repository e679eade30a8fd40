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
  setNativeBindingLoader((from) =>
    loadFromCache(Buffer.from(sea.getRawAsset(ADDON_ASSET) as ArrayBuffer), process.env, (file) => {
      const module = { exports: {} };
      process.dlopen(module, file);
      from(file);
      return module.exports;
    }),
  );
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

/**
 * Loads the addon from the first cache root where it can be written (or already is) and
 * loaded — a root on a `noexec` mount fails at load time and the next one is tried.
 */
export function loadFromCache<T>(
  addon: Buffer,
  env: NodeJS.ProcessEnv,
  load: (file: string) => T,
): T {
  const hash = createHash('sha256').update(addon).digest('hex').slice(0, 16);
  const roots = cacheRoots(env);
  const tried: string[] = [];
  for (const root of roots) {
    try {
      return load(ensureFile(join(root, hash), addon));
    } catch (err) {
      const e = err as NodeJS.ErrnoException; // ENOTDIR, EACCES, EROFS… or dlopen's message
      tried.push(`${root}: ${e.syscall ? e.code : e.message}`);
    }
  }
  throw new NativeAddonError(
    `no usable cache directory for the SQLite addon (tried ${tried.join('; ') || 'none: HOME is not set'}); set TIMETRACK_CACHE_DIR to a writable directory not mounted noexec`,
  );
}

/** dir/better_sqlite3.node, written if missing; the hash in dir vouches for an existing one. */
function ensureFile(dir: string, addon: Buffer): string {
  const file = join(dir, ADDON_ASSET);
  if (existsSync(file)) return file;
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
}

function safeHomedir(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined;
  }
}
