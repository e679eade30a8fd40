// The web app's pure functions: the timesheet's duration parser, ISO-week arithmetic
// (src/web/base) and the reports' ranges and URL settings (src/web/reports/settings.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { daysOfWeek, isoWeekOf, parseWeek, shiftWeek } from '../../src/web/base/dates';
import { formatDuration, parseDuration } from '../../src/web/base/duration';
import { rangeDates, readSettings, reportQuery, settingsUrl } from '../../src/web/reports/settings';

describe('parseDuration', () => {
  it('reads every accepted form', () => {
    const cases: [string, number | null][] = [
      ['1:30', 5400],
      ['0:05', 300],
      ['1.5', 5400],
      ['1,5', 5400],
      ['.25', 900],
      ['2.', 7200],
      ['1h30', 5400],
      ['1h30m', 5400],
      ['1h 30m', 5400],
      ['2h', 7200],
      ['1.5h', 5400],
      ['90m', 5400],
      ['8', 28800],
      ['1', 3600],
      ['  2 ', 7200],
      ['24', 86400],
      ['0', 0],
      ['24:00', 86400],
      ['', null],
      ['   ', null],
    ];
    for (const [text, seconds] of cases) {
      assert.deepEqual(parseDuration(text), { ok: true, seconds }, JSON.stringify(text));
    }
  });

  it('says why a bare number over 24 is refused: it is hours', () => {
    const parsed = parseDuration('90');
    assert.ok(!parsed.ok && /24 hours/.test(parsed.message) && /90m/.test(parsed.message));
  });

  it('refuses everything else with a message', () => {
    for (const text of [
      'abc',
      '1:60',
      '1:5',
      '-1',
      '1h-5',
      'h',
      'm',
      '1:30:00',
      '1e3',
      '24:01',
      '25',
      '90',
      '2000',
      '24.5',
      '1..5',
    ]) {
      const parsed = parseDuration(text);
      assert.equal(parsed.ok, false, JSON.stringify(text));
      assert.ok(!parsed.ok && parsed.message.length > 0);
    }
  });
});

describe('formatDuration', () => {
  it('shows h:mm', () => {
    assert.equal(formatDuration(5400), '1:30');
    assert.equal(formatDuration(0), '0:00');
    assert.equal(formatDuration(59), '0:01');
    assert.equal(formatDuration(36000 + 300), '10:05');
    assert.equal(formatDuration(null), '');
  });
});

describe('ISO weeks', () => {
  it('finds the week of a date, across year ends', () => {
    assert.deepEqual(isoWeekOf('2024-01-01'), { year: 2024, week: 1 });
    assert.deepEqual(isoWeekOf('2021-01-03'), { year: 2020, week: 53 });
    assert.deepEqual(isoWeekOf('2024-12-30'), { year: 2025, week: 1 });
    assert.deepEqual(isoWeekOf('2024-02-29'), { year: 2024, week: 9 });
  });

  it('lists Monday to Sunday and moves by weeks', () => {
    assert.deepEqual(daysOfWeek({ year: 2020, week: 53 }), [
      '2020-12-28',
      '2020-12-29',
      '2020-12-30',
      '2020-12-31',
      '2021-01-01',
      '2021-01-02',
      '2021-01-03',
    ]);
    assert.deepEqual(shiftWeek({ year: 2020, week: 53 }, 1), { year: 2021, week: 1 });
    assert.deepEqual(shiftWeek({ year: 2021, week: 1 }, -1), { year: 2020, week: 53 });
  });

  it('parses 2024-W05 and refuses weeks a year lacks', () => {
    assert.deepEqual(parseWeek('2024-W05'), { year: 2024, week: 5 });
    assert.deepEqual(parseWeek('2020-W53'), { year: 2020, week: 53 });
    assert.equal(parseWeek('2021-W53'), undefined);
    assert.equal(parseWeek('2024-W00'), undefined);
    assert.equal(parseWeek('2024-5'), undefined);
    assert.equal(parseWeek(null), undefined);
  });
});

describe('report ranges', () => {
  it('counts each preset from today, across month and year ends', () => {
    const cases: [Parameters<typeof rangeDates>[0], string, [string, string]][] = [
      ['this-week', '2024-03-13', ['2024-03-11', '2024-03-17']],
      ['last-week', '2024-01-03', ['2023-12-25', '2023-12-31']],
      ['this-month', '2024-02-10', ['2024-02-01', '2024-02-29']],
      ['last-month', '2024-03-31', ['2024-02-01', '2024-02-29']],
      ['last-month', '2024-01-15', ['2023-12-01', '2023-12-31']],
      ['this-year', '2024-07-01', ['2024-01-01', '2024-12-31']],
    ];
    for (const [range, today, want] of cases) {
      assert.deepEqual(rangeDates(range, today), want, `${range} from ${today}`);
    }
  });

  it('reads settings from the URL and writes them back the same', () => {
    const q = new URLSearchParams(
      'range=custom&start=2024-03-01&end=2024-03-31&project=gwm&group=project&then=user',
    );
    const s = readSettings(q, '2024-05-05');
    assert.deepEqual(reportQuery(s), {
      start: '2024-03-01',
      end: '2024-03-31',
      group_by: ['project', 'user'],
      project: ['gwm'],
    });
    assert.equal(settingsUrl(s), `/reports?${q}`);
    // Nonsense falls back to the defaults; a second grouping equal to the first is dropped.
    const odd = readSettings(new URLSearchParams('range=x&group=user&then=user'), '2024-05-05');
    assert.deepEqual(
      [odd.range, odd.start, odd.end, odd.group, odd.thenBy],
      ['this-month', '2024-05-01', '2024-05-31', 'user', ''],
    );
  });
});
