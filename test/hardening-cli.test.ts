// Issue 19, "Hardening, round 2": the command-line items, run from source as child
// processes (node --import tsx src/main.ts), the way test/cli.test.ts runs them.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
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
});
