// `timetrack admin backup <file>`: a consistent copy of a database that a server may be
// writing to at that moment (SPEC §8). VACUUM INTO copies from one read snapshot, so
// the server's writers never wait, and the copy is compact and self-contained (no -wal).
import { closeSync, existsSync, fsyncSync, linkSync, openSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError } from './cli';
import { openExistingInstance } from './instance-tables';

export function backupCommand(opts: { db: string; file: string }): string {
  if (existsSync(opts.file)) throw new CliError(`${opts.file} already exists; choose a new file`);
  // Written beside the target, then linked into place: the target name never shows a
  // half-written copy, and link() refuses to replace a file that appeared meanwhile.
  const partial = join(dirname(opts.file), `.${basename(opts.file)}.${process.pid}.partial`);
  const db = openExistingInstance(opts.db);
  try {
    db.prepare('VACUUM INTO ?').run(partial);
  } catch (err) {
    rmSync(partial, { force: true });
    throw new CliError(`cannot write ${opts.file}: ${(err as Error).message}`);
  } finally {
    db.close();
  }
  try {
    const fd = openSync(partial, 'r+');
    try {
      fsyncSync(fd); // on disk before it is called a backup
    } finally {
      closeSync(fd);
    }
    linkSync(partial, opts.file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new CliError(`${opts.file} already exists; choose a new file`);
    }
    throw new CliError(`cannot write ${opts.file}: ${(err as Error).message}`);
  } finally {
    rmSync(partial, { force: true });
  }
  return `Backed up ${opts.db} to ${opts.file} (${statSync(opts.file).size} bytes)`;
}
