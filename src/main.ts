// The `timetrack` command line (SPEC §8.1). Exit codes: 0 success, 1 a user error
// (one line on stderr), 2 bad usage.
import './heap-growth'; // first: before the rest of the bundle allocates
import yargs, { type Argv } from 'yargs';
import { backupCommand } from './admin/backup';
import { checkCommand } from './admin/check';
import { CliError } from './admin/cli';
import { createUserCommand, setPasswordCommand } from './admin/create-user';
import { exportCommand } from './admin/export';
import { importCommand } from './admin/import';
import { importFromCommand } from './admin/import-from';
import { migrateFromTimesyncNodeCommand } from './admin/migrate-timesync-node';
import { listTokensCommand, revokeTokenCommand } from './admin/tokens';
import { ConfigError, loadConfig, SETTINGS } from './config';
import { SchemaTooNewError } from './db/migrate';
import { NativeAddonError } from './db/native';
import { useEmbeddedNativeAddon } from './db/native-sea';
import { version } from './embedded';
import { startServer } from './server';

const dbOption = {
  type: 'string',
  describe: 'the SQLite database file [env TIMETRACK_DB]',
  default: process.env.TIMETRACK_DB || './timetrack.db',
  defaultDescription: './timetrack.db',
} as const;

function serveOptions(y: Argv) {
  for (const s of SETTINGS) {
    if ('envOnly' in s && s.envOnly) continue;
    y.option(s.flag, {
      type: 'string',
      describe: `${s.describe} [env ${s.env}]${s.default === undefined ? '' : ` (default: ${s.default})`}`,
    });
  }
  return y.epilog(
    `Secrets come only from the environment: ${SETTINGS.filter((s) => 'envOnly' in s && s.envOnly)
      .map((s) => s.env)
      .join(', ')}.`,
  );
}

async function serve(argv: Record<string, unknown>): Promise<void> {
  const config = loadConfig(argv as Parameters<typeof loadConfig>[0]);
  const running = await startServer(config);
  const stop = () => {
    running.close().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`error while stopping: ${(err as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

const say = (line: string) => process.stdout.write(`${line}\n`);

function adminCommands(y: Argv) {
  return y
    .command(
      'create-user <username>',
      'create a user directly in the database (works while the server runs)',
      (c) =>
        c
          .positional('username', { type: 'string', demandOption: true })
          .option('db', dbOption)
          .option('site-admin', { type: 'boolean', default: false, describe: 'may do everything' })
          .option('site-manager', {
            type: 'boolean',
            default: false,
            describe: 'manages projects, activities, users',
          })
          .option('site-spectator', {
            type: 'boolean',
            default: false,
            describe: 'sees every time entry',
          })
          .option('display-name', { type: 'string' })
          .option('email', { type: 'string' })
          .option('password-stdin', {
            type: 'boolean',
            default: false,
            describe: 'read the password from one line of stdin',
          })
          .example('$0 admin create-user alice --site-admin', 'asks for the password twice')
          .example("echo 's3cret-pass' | $0 admin create-user bob --password-stdin", ''),
      async (a) => {
        say(
          await createUserCommand({
            db: a.db,
            username: a.username,
            siteAdmin: a['site-admin'],
            siteManager: a['site-manager'],
            siteSpectator: a['site-spectator'],
            displayName: a['display-name'],
            email: a.email,
            passwordStdin: a['password-stdin'],
          }),
        );
      },
    )
    .command(
      'set-password <username>',
      "reset a user's password (e.g. a locked-out admin)",
      (c) =>
        c
          .positional('username', { type: 'string', demandOption: true })
          .option('db', dbOption)
          .option('password-stdin', {
            type: 'boolean',
            default: false,
            describe: 'read the password from one line of stdin',
          }),
      async (a) => {
        say(
          await setPasswordCommand({
            db: a.db,
            username: a.username,
            passwordStdin: a['password-stdin'],
          }),
        );
      },
    )
    .command('tokens', "list or revoke a user's personal API tokens", tokenCommands)
    .command(
      'backup <file>',
      'write a consistent copy of the database, also while the server runs',
      (c) =>
        c
          .positional('file', { type: 'string', demandOption: true, describe: 'a new file' })
          .option('db', dbOption)
          .example('$0 admin backup /backups/timetrack-$(date +%F).db', ''),
      async (a) => {
        say(backupCommand({ db: a.db, file: a.file }));
      },
    )
    .command(
      'export',
      'write the whole instance as JSON lines (includes password hashes and the signing key)',
      (c) =>
        c
          .option('db', dbOption)
          .option('output', { type: 'string', describe: 'a new file (default: stdout)' }),
      async (a) => {
        const done = await exportCommand({ db: a.db, output: a.output });
        if (done) say(done);
      },
    )
    .command(
      'import <file>',
      'load an export into an empty database',
      (c) => c.positional('file', { type: 'string', demandOption: true }).option('db', dbOption),
      async (a) => {
        say(await importCommand({ db: a.db, file: a.file }));
      },
    )
    .command(
      'import-from <format> <file>',
      'import the time entries of another tracker: toggl, clockify, harvest, kimai, solidtime',
      (c) =>
        c
          .positional('format', {
            type: 'string',
            demandOption: true,
            choices: ['toggl', 'clockify', 'harvest', 'kimai', 'solidtime'],
          })
          .positional('file', { type: 'string', demandOption: true, describe: 'its export' })
          .option('db', dbOption)
          .option('dry-run', {
            type: 'boolean',
            default: false,
            describe: 'report what would be imported, write nothing',
          })
          .option('create-users', {
            type: 'boolean',
            default: false,
            describe: 'create the people no user matches (inactive, no password)',
          })
          .option('default-activity', {
            type: 'string',
            describe: 'activity slug for rows with no task whose project has no default',
          })
          .option('tags-as-activities', {
            type: 'boolean',
            default: false,
            describe: 'tags become activities too',
          })
          .option('timezone', {
            type: 'string',
            describe:
              "IANA zone of files with UTC times (default: each person's, else the server's)",
          })
          .option('json', { type: 'boolean', default: false, describe: 'the report as JSON' })
          .example('$0 admin import-from toggl Toggl_time_entries.csv --dry-run', '')
          .example('$0 admin import-from harvest harvest.csv --create-users', ''),
      async (a) => {
        say(
          await importFromCommand({
            db: a.db,
            format: a.format,
            file: a.file,
            dryRun: a['dry-run'],
            createUsers: a['create-users'],
            defaultActivity: a['default-activity'],
            tagsAsActivities: a['tags-as-activities'],
            timezone: a.timezone,
            json: a.json,
          }),
        );
      },
    )
    .command(
      'check',
      'check the database: SQLite integrity, foreign keys, revision chains, live slugs',
      (c) => c.option('db', dbOption),
      async (a) => {
        say(checkCommand({ db: a.db }, say));
      },
    )
    .demandCommand(1, 'name an admin command');
}

function tokenCommands(y: Argv) {
  return y
    .command(
      'list <username>',
      "a user's personal API tokens (revoked ones left out; secrets are never stored)",
      (c) =>
        c.positional('username', { type: 'string', demandOption: true }).option('db', dbOption),
      async (a) => {
        say(listTokensCommand({ db: a.db, username: a.username }));
      },
    )
    .command(
      'revoke <id>',
      'revoke a personal API token: refused from then on (works while the server runs)',
      (c) =>
        c
          .positional('id', {
            type: 'string',
            demandOption: true,
            describe: 'as `tokens list` shows it',
          })
          .option('db', dbOption)
          .example('$0 admin tokens revoke 12', ''),
      async (a) => {
        say(revokeTokenCommand({ db: a.db, id: a.id }));
      },
    )
    .demandCommand(1, 'name a tokens command: list or revoke');
}

function reportAndExit(err: unknown): never {
  if (
    err instanceof CliError ||
    err instanceof ConfigError ||
    err instanceof SchemaTooNewError ||
    err instanceof NativeAddonError
  ) {
    process.stderr.write(`timetrack: ${err.message}\n`);
    process.exit(1);
  }
  const e = err as NodeJS.ErrnoException;
  if (
    e &&
    typeof e.code === 'string' &&
    ['EADDRINUSE', 'EACCES', 'SQLITE_CANTOPEN', 'SQLITE_NOTADB'].includes(e.code)
  ) {
    process.stderr.write(`timetrack: ${e.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`timetrack: unexpected error: ${e?.stack ?? String(err)}\n`);
  process.exit(1);
}

export function main(args: string[]): void {
  useEmbeddedNativeAddon(); // inside the executable: SQLite's addon comes from the binary
  const { version: v, commit } = version();
  yargs(args)
    .scriptName('timetrack')
    .usage('$0 <command> [options]')
    .command('serve', 'run the TimeSync API server', serveOptions, (a) => serve(a))
    .command('admin', 'administer an instance: users, passwords, backups', adminCommands)
    .command(
      'migrate-from-timesync-node <sqlite-file>',
      'copy a database of the old TimeSync reference server into a new, empty database',
      (c) =>
        c
          .positional('sqlite-file', {
            type: 'string',
            demandOption: true,
            describe: "the old server's SQLite file (opened read-only)",
          })
          .option('db', dbOption)
          .example('$0 migrate-from-timesync-node old/timesync.sqlite3 --db timetrack.db', ''),
      async (a) => {
        say(migrateFromTimesyncNodeCommand({ from: a['sqlite-file'], db: a.db }));
      },
    )
    .demandCommand(1, 'name a command')
    .strict()
    .version(`${v} (${commit})`)
    .help()
    .alias('h', 'help')
    // The terminal's full width; into a pipe or a file, no wrapping at all (one line per
    // description, for grep, and no word split at a margin nobody sees).
    .wrap(process.stdout.isTTY ? process.stdout.columns : null)
    .fail((msg, err, y) => {
      if (err) reportAndExit(err);
      process.stderr.write(`${y.help()}\n\n${msg}\n`);
      process.exit(2);
    })
    .parseAsync()
    .catch(reportAndExit);
}

main(process.argv.slice(2));
