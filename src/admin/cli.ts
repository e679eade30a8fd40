// Shared pieces of the one-shot commands: one-line user errors, reading a password,
// opening the database the way `serve` does.

import { statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { createPasswordHasher } from '../auth/password';
import { migrate, SchemaTooNewError } from '../db/migrate';
import { NativeAddonError } from '../db/native';
import { beforeCommit, type Db, openDatabase } from '../db/open';
import { createProjectJsonStore } from '../projects/json-store';

/** A user error: printed as one line on stderr, exit code 1. */
export class CliError extends Error {}

export interface PasswordSource {
  passwordStdin?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** --password-stdin (one line), else TIMETRACK_ADMIN_PASSWORD, else a hidden prompt asked twice. */
export async function readNewPassword(source: PasswordSource): Promise<string> {
  let password: string | undefined;
  if (source.passwordStdin) {
    password = (await readAll(process.stdin)).split(/\r?\n/)[0] ?? '';
  } else if (source.env?.TIMETRACK_ADMIN_PASSWORD) {
    password = source.env.TIMETRACK_ADMIN_PASSWORD;
  } else if (process.stdin.isTTY) {
    password = await promptHidden('Password: ');
    if ((await promptHidden('Password (again): ')) !== password) {
      throw new CliError('the two passwords differ');
    }
  } else {
    throw new CliError(
      'no password given: use --password-stdin, TIMETRACK_ADMIN_PASSWORD or a terminal',
    );
  }
  if (password === '') throw new CliError('the password may not be empty');
  return password;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}

/**
 * Asks on the terminal without echo. readline runs in terminal (raw) mode but writes
 * into a sink: its own output would echo the typing and, on every refresh, erase the
 * prompt we wrote to stderr. Ctrl-C cancels (exit 1) instead of ending silently.
 */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const rl = createInterface({ input: process.stdin, output: sink, terminal: true });
    process.stderr.write(question);
    rl.on('SIGINT', () => {
      rl.close();
      process.stderr.write('\n');
      reject(new CliError('cancelled'));
    });
    rl.question('', (answer) => {
      rl.close();
      process.stderr.write('\n');
      resolve(answer);
    });
  });
}

/** SQLite calls a directory a "disk I/O error", a read stream EISDIR: say what it is. */
export function refuseDirectory(file: string, wanted: string): void {
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CliError(`${file} is a directory, not ${wanted}`);
  }
}

/**
 * Opens (creating and migrating if needed) the database for a one-shot command. A file
 * that cannot be opened (missing directory, not a database, no permission) is a user
 * error naming the file, not a stack trace.
 */
export function openForCommand(file: string): Db {
  refuseDirectory(file, 'a database file');
  let db: Db | undefined;
  try {
    db = openDatabase(file);
    migrate(db);
    // Its writes leave no project's JSON stale, as the server's do.
    beforeCommit(db, createProjectJsonStore(db).fillAll);
    return db;
  } catch (err) {
    db?.close();
    if (err instanceof SchemaTooNewError || err instanceof NativeAddonError) throw err;
    throw new CliError(`cannot open the database ${file}: ${(err as Error).message}`);
  }
}

/**
 * Opens an existing file read-only and runs `check` on it (a schema test); a file that is
 * not SQLite at all (which opening already finds: its pragmas read the header) is the
 * user error `<file> is <notWhat>`.
 */
export function openReadOnlyChecked(file: string, notWhat: string, check: (db: Db) => void): Db {
  const mapped = (err: unknown) =>
    (err as { code?: string }).code === 'SQLITE_NOTADB'
      ? new CliError(`${file} is ${notWhat}`)
      : err;
  let db: Db;
  try {
    db = openDatabase(file, { readonly: true });
  } catch (err) {
    throw mapped(err);
  }
  try {
    check(db);
  } catch (err) {
    db.close();
    throw mapped(err);
  }
  return db;
}

/** bcrypt hash of a password, computed the way the server does. */
export async function hashPassword(password: string): Promise<string> {
  const hasher = createPasswordHasher(1);
  try {
    return await hasher.hash(password);
  } finally {
    await hasher.close();
  }
}
