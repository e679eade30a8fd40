// `timetrack admin create-user` and `timetrack admin set-password` (SPEC §2.5, §8.1):
// write straight into the database file, also while the server runs (WAL, busy_timeout).
import { writeTransaction } from '../db/open';
import { createReaderPool } from '../db/readers';
import { isNewUsername } from '../identifiers';
import { registerUser } from '../users/register';
import { createUserStore } from '../users/store';
import { isEmail } from '../validate';
import { CliError, hashPassword, openForCommand, readNewPassword } from './cli';

export interface CreateUserOptions {
  db: string;
  username: string;
  siteAdmin: boolean;
  siteManager: boolean;
  siteSpectator: boolean;
  displayName?: string;
  email?: string;
  passwordStdin: boolean;
}

export async function createUserCommand(opts: CreateUserOptions): Promise<string> {
  if (!isNewUsername(opts.username)) {
    throw new CliError(`'${opts.username}' is not a valid username (1-64 of A-Z a-z 0-9 - . _ ~)`);
  }
  // The same field rules as POST /users (SPEC §4.4).
  if (opts.email !== undefined && !isEmail(opts.email)) {
    throw new CliError(`'${opts.email}' is not an email address`);
  }
  if (opts.displayName !== undefined && opts.displayName.length > 255) {
    throw new CliError('the display name may have at most 255 characters');
  }
  const db = openForCommand(opts.db);
  try {
    const users = createUserStore(db, createReaderPool(opts.db));
    const taken = () => new CliError(`user '${opts.username}' already exists`);
    if (users.idOf(opts.username) !== undefined) throw taken();
    const hash = await hashPassword(
      await readNewPassword({ passwordStdin: opts.passwordStdin, env: process.env }),
    );
    writeTransaction(db, () => {
      // Another process may have taken the name while the password was read.
      if (users.idOf(opts.username) !== undefined) throw taken();
      const fields = {
        display_name: opts.displayName ?? null,
        password_hash: hash,
        email: opts.email ?? null,
        site_spectator: opts.siteSpectator,
        site_manager: opts.siteManager,
        site_admin: opts.siteAdmin,
      };
      registerUser(db, users, { username: opts.username, fields });
    });
    const flags = [
      opts.siteAdmin && 'site admin',
      opts.siteManager && 'site manager',
      opts.siteSpectator && 'site spectator',
    ]
      .filter(Boolean)
      .join(', ');
    return `Created user '${opts.username}'${flags ? ` (${flags})` : ''} in ${opts.db}`;
  } finally {
    db.close();
  }
}

export async function setPasswordCommand(opts: {
  db: string;
  username: string;
  passwordStdin: boolean;
}) {
  const db = openForCommand(opts.db);
  try {
    const users = createUserStore(db, createReaderPool(opts.db));
    const user = users.findByUsername(opts.username);
    if (!user) throw new CliError(`no user '${opts.username}'`);
    const hash = await hashPassword(
      await readNewPassword({ passwordStdin: opts.passwordStdin, env: process.env }),
    );
    writeTransaction(db, () => users.setPassword(user.id, hash, Date.now()));
    return `Set the password of '${user.username}'`;
  } finally {
    db.close();
  }
}
