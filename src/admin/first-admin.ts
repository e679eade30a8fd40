// So that a newcomer's first `serve` is usable (SPEC §2.5): an empty database gets an
// administrator, with TIMETRACK_ADMIN_PASSWORD or a random password printed once.
import { randomBytes } from 'node:crypto';
import type { PasswordHasher } from '../auth/password';
import type { Config } from '../config';
import { type Db, writeTransaction } from '../db/open';
import { registerUser } from '../users/register';
import type { UserStore } from '../users/store';

export interface FirstAdminDeps {
  config: Readonly<Config>;
  db: Db;
  users: UserStore;
  passwords: PasswordHasher;
}

export async function ensureFirstAdmin(
  { config, db, users, passwords }: FirstAdminDeps,
  announce: (line: string) => void,
): Promise<void> {
  if (users.count() > 0) return;
  const { adminUsername: username, adminPassword } = config;
  const password = adminPassword ?? randomBytes(15).toString('base64url');
  const hash = await passwords.hash(password);
  writeTransaction(db, () => {
    if (users.count() > 0) return; // another process got there first
    const fields = { display_name: 'Administrator', password_hash: hash, site_admin: true };
    registerUser(db, users, { username, fields });
    if (adminPassword === undefined) {
      announce(
        `Created the first administrator '${username}' with password ${password} (shown only this once).\n` +
          `Log in with: curl -X POST ${baseUrl(config)}/v0/login -H 'Content-Type: application/json' ` +
          `-d '{"auth":{"type":"password","username":"${username}","password":"<password>"}}'`,
      );
    } else {
      announce(
        `Created the first administrator '${username}' with the password from TIMETRACK_ADMIN_PASSWORD.`,
      );
    }
  });
}

/**
 * Where the server will listen, for the hint. It is printed before listening (so the
 * password is never lost if listening fails); with --port 0 the port is not known yet.
 */
function baseUrl(config: Pick<Config, 'host' | 'port'>): string {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port === 0 ? 'PORT' : config.port}`;
}
