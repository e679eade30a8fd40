// `timetrack admin tokens list <username>` and `timetrack admin tokens revoke <id>`
// (issue 33): an operator's view of personal API tokens, straight from the database file
// (also while the server runs: every process reads revocations from the table).

import { formatDate } from '../dates';
import { writeTransaction } from '../db/open';
import { createReaderPool } from '../db/readers';
import { createTokenStore } from '../tokens/store';
import { createUserStore } from '../users/store';
import { CliError, openForCommand } from './cli';

/** The user's unrevoked tokens as a table (never a secret: none is stored). */
export function listTokensCommand(opts: { db: string; username: string }): string {
  const db = openForCommand(opts.db);
  try {
    const user = createUserStore(db, createReaderPool(opts.db)).findByUsername(opts.username);
    if (!user) throw new CliError(`no user '${opts.username}'`);
    const rows = createTokenStore(db).listOf(user.id);
    if (rows.length === 0) return `'${user.username}' has no tokens`;
    const now = Date.now();
    const cells = rows.map((t) => [
      String(t.id),
      t.name,
      t.scope,
      formatDate(t.created_at),
      t.expires_at === null
        ? 'never'
        : `${formatDate(t.expires_at)}${t.expires_at <= now ? ' (expired)' : ''}`,
      t.last_used_at === null
        ? 'never'
        : new Date(t.last_used_at).toISOString().slice(0, 16).replace('T', ' '),
    ]);
    const head = ['ID', 'NAME', 'SCOPE', 'CREATED', 'EXPIRES', 'LAST USED (UTC)'];
    const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
    const line = (c: string[]) =>
      c
        .map((v, i) => v.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd();
    return [line(head), ...cells.map(line)].join('\n');
  } finally {
    db.close();
  }
}

/** Revokes one token by id: refused from then on by every server on the file. */
export function revokeTokenCommand(opts: { db: string; id: string }): string {
  if (!/^[1-9][0-9]{0,14}$/.test(opts.id)) {
    throw new CliError(`'${opts.id}' is not a token id (a positive integer)`);
  }
  const id = Number(opts.id);
  const db = openForCommand(opts.db);
  try {
    const tokens = createTokenStore(db);
    return writeTransaction(db, () => {
      const row = tokens.find(id);
      if (!row || row.revoked_at !== null) throw new CliError(`no unrevoked token ${id}`);
      tokens.revoke(id, Date.now());
      return `Revoked token ${id} ('${row.name}' of '${row.username}')`;
    });
  } finally {
    db.close();
  }
}
