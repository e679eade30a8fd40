// A report's date range split into whole months (read from their totals, sql/006) and
// the partial months at its edges (read entry by entry): src/reports/months.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastDayOfMonth, splitByMonth } from '../../../src/reports/months';

describe('splitting a report range by month', () => {
  it('knows the last day of every month, leap years included', () => {
    assert.equal(lastDayOfMonth('2024-02-10'), '2024-02-29');
    assert.equal(lastDayOfMonth('2023-02-10'), '2023-02-28');
    assert.equal(lastDayOfMonth('1900-02-01'), '1900-02-28');
    assert.equal(lastDayOfMonth('2000-02-01'), '2000-02-29');
    assert.equal(lastDayOfMonth('0004-02-01'), '0004-02-29');
    assert.equal(lastDayOfMonth('2024-04-30'), '2024-04-30');
    assert.equal(lastDayOfMonth('2024-12-01'), '2024-12-31');
  });

  it('answers whole months alone for a range of whole months', () => {
    assert.deepEqual(splitByMonth('2024-01-01', '2024-12-31'), {
      months: { first: '2024-01', last: '2024-12' },
      head: undefined,
      tail: undefined,
    });
    assert.deepEqual(splitByMonth('2024-02-01', '2024-02-29')?.months, {
      first: '2024-02',
      last: '2024-02',
    });
  });

  it('keeps the partial months at either edge apart, across years', () => {
    assert.deepEqual(splitByMonth('2023-12-15', '2025-01-20'), {
      months: { first: '2024-01', last: '2024-12' },
      head: { start: '2023-12-15', end: '2023-12-31' },
      tail: { start: '2025-01-01', end: '2025-01-20' },
    });
    assert.deepEqual(splitByMonth('9999-11-02', '9999-12-31'), {
      months: { first: '9999-12', last: '9999-12' },
      head: { start: '9999-11-02', end: '9999-11-30' },
      tail: undefined,
    });
    assert.deepEqual(splitByMonth('0000-01-01', '0000-02-28'), {
      months: { first: '0000-01', last: '0000-01' },
      head: undefined,
      tail: { start: '0000-02-01', end: '0000-02-28' },
    });
  });

  it('answers nothing when no whole month is in the range', () => {
    assert.equal(splitByMonth('2024-01-02', '2024-01-31'), undefined);
    assert.equal(splitByMonth('2024-01-15', '2024-02-14'), undefined);
    assert.equal(splitByMonth('2024-03-05', '2024-03-05'), undefined);
    assert.equal(splitByMonth('9999-12-02', '9999-12-31'), undefined);
  });
});
