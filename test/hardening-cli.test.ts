// Issue 19, "Hardening, round 2": the command-line items, run from source as child
// processes (node --import tsx src/main.ts), the way test/cli.test.ts runs them.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { assertUserError, runCli } from './helpers/cli';
import { tempDir } from './helpers/server';

describe('hardening round 2: command line', () => {
  describe('item 9: usernames . and ..', () => {
    for (const username of ['.', '..']) {
      it(`admin create-user ${username} is refused and creates nothing`, async () => {
        const db = join(tempDir(), 'users.db');
        const res = await runCli(
          ['admin', 'create-user', username, '--db', db, '--password-stdin'],
          {
            input: 'a good password\n',
          },
        );
        assertUserError(res, /is not a valid username/);
        assert.equal(existsSync(db), false);
      });
    }
  });

  describe('item 14: one line on stderr, exit 1, no stack trace', () => {
    for (const args of [
      ['admin', 'check', '--db', '<dir>'],
      ['admin', 'backup', '<new>', '--db', '<dir>'],
      ['admin', 'export', '--db', '<dir>'],
      ['admin', 'create-user', 'alice', '--db', '<dir>'],
      ['migrate-from-timesync-node', '<dir>', '--db', '<new>'],
      ['admin', 'import', '<dir>', '--db', '<new>'],
    ]) {
      it(`${args.join(' ')}: a directory is named as one`, async () => {
        const dir = tempDir();
        const target = join(dir, 'a-directory');
        mkdirSync(target);
        const res = await runCli(
          args.map((a) => (a === '<dir>' ? target : a === '<new>' ? join(dir, 'new.db') : a)),
          { input: 'a good password\n' },
        );
        assertUserError(res, /^timetrack: .*a-directory is a directory, not /);
        assert.equal(existsSync(join(dir, 'new.db')), false, 'nothing written');
      });
    }

    it('serve --host 256.1.1.1: cannot listen, says so in one line, creates no admin', async () => {
      const db = join(tempDir(), 'serve.db');
      const res = await runCli(['serve', '--host', '256.1.1.1', '--port', '0', '--db', db]);
      assertUserError(res, /^timetrack: cannot listen on 256\.1\.1\.1:0: /);
      const file = new Database(db, { readonly: true });
      try {
        assert.equal(file.prepare('SELECT count(*) FROM users').pluck().get(), 0);
      } finally {
        file.close();
      }
    });
  });
});
