// Inside the single executable (docs/executable.md) better-sqlite3's native addon and our
// SQLite extension travel as SEA assets: the operating system can only load a shared
// library from a file, so each is written once to a cache directory and loaded from
// there. Outside the executable this does nothing: better-sqlite3 finds its addon in
// node_modules as usual, and the extension is dist/native's (src/db/native.ts).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  NativeAddonError,
  SQLITE_EXTENSION_NAME,
  setNativeBindingLoader,
  setSqliteExtensionLoader,
} from './native';

/** The asset names build.mjs gives the two libraries in sea-config.json. */
export const ADDON_ASSET = 'better_sqlite3.node';
export const EXTENSION_ASSET = SQLITE_EXTENSION_NAME;

/** Registers the embedded addon's loader when running as the executable; cheap otherwise. */
export function useEmbeddedNativeAddon(): void {
  const sea = seaModule();
  if (!sea?.isSea()) return;
  const asset = (name: string) => Buffer.from(sea.getRawAsset(name) as ArrayBuffer);
  setNativeBindingLoader((from) =>
    loadFromCache(asset(ADDON_ASSET), ADDON_ASSET, process.env, (file) => {
      const module = { exports: {} };
      process.dlopen(module, file);
      from(file);
      return module.exports;
    }),
  );
  // SQLite loads it itself (on every connection); written out here, once per process.
  setSqliteExtensionLoader(() =>
    loadFromCache(asset(EXTENSION_ASSET), EXTENSION_ASSET, process.env, (file) => file),
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
 * Loads a library from the first cache root where it can be written (or already is) and
 * loaded — a root on a `noexec` mount fails at load time and the next one is tried.
 */
export function loadFromCache<T>(
  addon: Buffer,
  name: string,
  env: NodeJS.ProcessEnv,
  load: (file: string) => T,
): T {
  const hash = createHash('sha256').update(addon).digest('hex').slice(0, 16);
  const roots = cacheRoots(env);
  const tried: string[] = [];
  for (const root of roots) {
    try {
      return load(ensureFile(join(root, hash), name, addon));
    } catch (err) {
      const e = err as NodeJS.ErrnoException; // ENOTDIR, EACCES, EROFS… or dlopen's message
      tried.push(`${root}: ${e.syscall ? e.code : e.message}`);
    }
  }
  throw new NativeAddonError(
    `no usable cache directory for the SQLite addon (tried ${tried.join('; ') || 'none: HOME is not set'}); set TIMETRACK_CACHE_DIR to a writable directory not mounted noexec`,
  );
}

/** dir/name, written if missing; the hash in dir vouches for an existing one. */
function ensureFile(dir: string, name: string, addon: Buffer): string {
  const file = join(dir, name);
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
