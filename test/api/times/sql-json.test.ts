// Time entries leave the server as JSON that SQLite writes (json_object, sqlDate), the
// other objects as JSON that JavaScript writes (JSON.stringify, formatDate). A client
// must not be able to tell them apart: same dates, same strings after parsing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { formatDate, sqlDate } from '../../../src/dates';

const db = new Database(':memory:');

describe('SQLite-written JSON', () => {
  test('sqlDate gives the calendar date formatDate gives, around day and epoch edges', () => {
    const day = 86_400_000;
    const samples = [
      0,
      1,
      999,
      day - 1,
      day,
      day + 1,
      -1,
      -999,
      -1000,
      -day,
      -day - 1,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2024, 2, 1),
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2038, 0, 19, 3, 14, 8),
      1_763_900_000_123,
      253_402_300_799_999,
    ];
    const stmt = db.prepare(`SELECT ${sqlDate('?')}`).pluck();
    for (const ms of samples) assert.equal(stmt.get(ms), formatDate(ms), `ms = ${ms}`);
    assert.equal(stmt.get(null), null);
  });

  test('json_object strings parse back to exactly what was stored', () => {
    const strings = [
      'plain',
      'quote " backslash \\ slash / ',
      'controls \u0000 \u0001 \b \f \n \r \t \u001f \u007f',
      'unicode é 中文 \u200f RTL \u2028 \u2029 emoji 😀',
      '',
    ];
    const stmt = db.prepare("SELECT json_object('notes', ?)").pluck();
    for (const s of strings) {
      assert.deepEqual(JSON.parse(stmt.get(s) as string), { notes: s });
    }
  });
});
