// So that a newcomer's first `serve` is usable (SPEC §2.5): an empty database gets an
// administrator, with TIMETRACK_ADMIN_PASSWORD or a random password printed once.
import { randomBytes } from 'node:crypto';
import type { App } from '../app';
import type { Config } from '../config';

export async function ensureFirstAdmin(app: App, announce: (line: string) => void): Promise<void> {
  if (app.userStore.count() > 0) return;
  const { adminUsername: username, adminPassword } = app.config;
  const password = adminPassword ?? randomBytes(15).toString('base64url');
  const hash = await app.passwords.hash(password);
  app.db
    .transaction(() => {
      if (app.userStore.count() > 0) return; // another process got there first
      app.userStore.insert(
        username,
        {
          display_name: 'Administrator',
          password_hash: hash,
          email: null,
          meta: null,
          site_spectator: false,
          site_manager: false,
          site_admin: true,
          active: true,
        },
        Date.now(),
      );
      if (adminPassword === undefined) {
        announce(
          `Created the first administrator '${username}' with password ${password} (shown only this once).\n` +
            `Log in with: curl -X POST ${baseUrl(app.config)}/v0/login -H 'Content-Type: application/json' ` +
            `-d '{"auth":{"type":"password","username":"${username}","password":"<password>"}}'`,
        );
      } else {
        announce(
          `Created the first administrator '${username}' with the password from TIMETRACK_ADMIN_PASSWORD.`,
        );
      }
    })
    .immediate();
}

/**
 * Where the server will listen, for the hint. It is printed before listening (so the
 * password is never lost if listening fails); with --port 0 the port is not known yet.
 */
function baseUrl(config: Pick<Config, 'host' | 'port'>): string {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${config.port === 0 ? 'PORT' : config.port}`;
}
