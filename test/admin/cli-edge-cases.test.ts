// Issue 19, "Hardening, round 2": the command-line items, run from source as child
// processes (node --import tsx src/main.ts), the way test/admin/cli.test.ts runs them; the
// --help check also runs the built executable (its bundle wrapped help differently).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SETTINGS } from '../../src/config';
import { assertUserError, childEnv, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/server';

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

  describe('item 14: admin import reads line by line, at most 16 MiB a line', () => {
    const LIMIT = 16 * 1024 * 1024;

    it('admin import /dev/zero stops at the limit of line 1 and creates nothing', async () => {
      const db = join(tempDir(), 'zero.db');
      const res = await runCli(['admin', 'import', '/dev/zero', '--db', db]);
      assertUserError(res, /^timetrack: \/dev\/zero line 1 is longer than 16 MiB/);
      assert.equal(existsSync(db), false);
    });

    it('a line over the limit fails naming its number; nothing is imported', async () => {
      const dir = tempDir();
      const source = join(dir, 'source.db');
      const created = await runCli(
        ['admin', 'create-user', 'alice', '--db', source, '--password-stdin'],
        { input: 'a good password\n' },
      );
      assert.equal(created.code, 0, created.stderr);
      const file = join(dir, 'export.jsonl');
      const exported = await runCli(['admin', 'export', '--db', source, '--output', file]);
      assert.equal(exported.code, 0, exported.stderr);

      // Exactly the limit is read (and refused as JSON); one byte more is not read.
      const atLimit = join(dir, 'at-limit.jsonl');
      writeFileSync(atLimit, '');
      appendFileSync(atLimit, `${readHeader(file)}\n${'x'.repeat(LIMIT)}\n`);
      const read = await runCli(['admin', 'import', atLimit, '--db', join(dir, 'a.db')]);
      assertUserError(read, /at-limit\.jsonl line 2: not a \{"table", "row"\} object/);

      const lines = readLines(file);
      assert.ok(lines.length >= 2, 'a header and rows');
      const tooLong = join(dir, 'too-long.jsonl');
      writeFileSync(tooLong, `${lines.join('\n')}\n`);
      appendFileSync(tooLong, `${'x'.repeat(LIMIT + 1)}\n${lines[1]}\n`);
      const target = join(dir, 'target.db');
      const res = await runCli(['admin', 'import', tooLong, '--db', target]);
      assertUserError(
        res,
        new RegExp(`too-long\\.jsonl line ${lines.length + 1} is longer than 16 MiB`),
      );
      const db = new Database(target, { readonly: true });
      try {
        assert.equal(db.prepare('SELECT count(*) FROM users').pluck().get(), 0);
        assert.equal(db.prepare('SELECT count(*) FROM settings').pluck().get(), 0);
      } finally {
        db.close();
      }
    });
  });

  describe('item 15: --help splits no word', () => {
    const settings = SETTINGS.filter((s) => !('envOnly' in s && s.envOnly));
    const cases: [string[], string[]][] = [
      [
        ['--help'],
        [
          'administer an instance: users, passwords, backups',
          'copy a database of the old TimeSync reference server into a new, empty database',
        ],
      ],
      [
        ['admin', '--help'],
        [
          'create a user directly in the database (works while the server runs)',
          "reset a user's password (e.g. a locked-out admin)",
          'write a consistent copy of the database, also while the server runs',
          'write the whole instance as JSON lines (includes password hashes and the signing key)',
          'check the database: SQLite integrity, foreign keys, revision chains, live slugs',
        ],
      ],
      [
        ['serve', '--help'],
        [
          ...settings.map((s) => `${s.describe} [env ${s.env}]`),
          'Secrets come only from the environment: TIMETRACK_SECRET_KEY, TIMETRACK_LDAP_BIND_PASSWORD, TIMETRACK_OIDC_CLIENT_SECRET, TIMETRACK_ADMIN_PASSWORD.',
        ],
      ],
    ];
    const BUILT = join(__dirname, '../..', 'dist', 'timetrack');
    const runners: [string, (args: string[]) => Promise<string>, string | false][] = [
      ['from source, piped', async (args) => (await runCli(args)).stdout, false],
      [
        'the executable, piped',
        (args) =>
          new Promise((resolve, reject) =>
            execFile(BUILT, args, { env: childEnv() }, (err, stdout) =>
              err ? reject(err) : resolve(stdout),
            ),
          ),
        !existsSync(BUILT) && 'dist/timetrack is missing: run `npm run build` first',
      ],
      [
        // On a terminal the help is wrapped to its width, at words.
        'the executable on a 120-column terminal',
        (args) =>
          new Promise((resolve, reject) =>
            execFile(
              '/usr/bin/script',
              [
                '-qec',
                `stty cols 120; exec ${[BUILT, ...args].map((a) => `'${a}'`).join(' ')}`,
                '/dev/null',
              ],
              { env: childEnv() },
              (err, stdout) => (err ? reject(err) : resolve(stdout.replace(/\r/g, ''))),
            ),
          ),
        !existsSync(BUILT)
          ? 'dist/timetrack is missing: run `npm run build` first'
          : !existsSync('/usr/bin/script') && 'needs util-linux script for a terminal',
      ],
    ];
    for (const [name, run, skip] of runners) {
      for (const [args, descriptions] of cases) {
        it(`timetrack ${args.join(' ')}, ${name}: every description intact`, {
          skip,
        }, async () => {
          const out = await run(args);
          // Lines joined again: a break between words becomes a space, one inside a word
          // leaves the word in two pieces.
          const joined = out.replace(/[ \t]*\n[ \t]*/g, ' ');
          for (const text of descriptions) assert.ok(joined.includes(text), `${text}\n${out}`);
        });
      }
    }
  });
});

function readLines(file: string): string[] {
  return readFileSync(file, 'utf8').trimEnd().split('\n');
}

function readHeader(file: string): string {
  return readLines(file)[0] as string;
}
