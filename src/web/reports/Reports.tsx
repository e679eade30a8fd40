// The reports page: totals of the entries the caller may see (GET /v0/reports counts
// exactly what GET /v0/times lists, SPEC §3) over a range, filtered and grouped by one
// or two of project / activity / user / day / week / month; a table with the totals, a
// chart (bars over time, or a ranked list), and CSV downloads of the report and of the
// entries behind it. Every setting lives in the URL.
import { useState } from 'preact/hooks';
import { api, errorText } from '../api';
import { useCatalog } from '../base/catalog';
import { today } from '../base/dates';
import { formatDuration } from '../base/duration';
import { useResource } from '../base/resource';
import { navigate } from '../router';
import { groupLabel, userNamesOf } from './labels';
import { PeriodChart } from './PeriodChart';
import { RankedBars } from './RankedBars';
import { ReportForm } from './ReportForm';
import { ReportTable } from './ReportTable';
import {
  chartQuery,
  isPeriod,
  type ReportSettings,
  readSettings,
  reportQuery,
  settingsUrl,
} from './settings';

export function Reports(props: { username: string; query: URLSearchParams }) {
  const { catalog } = useCatalog(props.username);
  const settings = readSettings(props.query, today());
  const key = settingsUrl(settings);
  // A report is shown only with the settings it was made for (useResource): while the
  // next one loads, its chart and table never mix the last report's rows with the new
  // grouping or dates.
  const loaded = useResource(key, async () => {
    const chart = chartQuery(settings);
    const [table, ofChart] = await Promise.all([
      api.report(reportQuery(settings)),
      chart ? api.report(chart) : undefined,
    ]);
    return { table, chartRows: (ofChart ?? table).rows };
  });
  const report = loaded.data?.table;
  const [failed, setError] = useState<string | undefined>();
  const error = failed ?? loaded.error;
  const [status, setStatus] = useState('');
  const users = useResource('users', () => api.users()).data ?? [];
  const names = userNamesOf(users);

  const download = async (what: 'report' | 'entries') => {
    setError(undefined);
    try {
      const { group_by: _, ...filters } = reportQuery(settings);
      const name =
        what === 'report'
          ? await api.downloadReport(reportQuery(settings))
          : await api.downloadTimes(filters);
      setStatus(`Downloaded ${name}`);
    } catch (err) {
      setError(errorText(err));
    }
  };

  // The chart sums the first grouping (over the second, if any; see chartQuery).
  const bars = new Map<string, number>();
  for (const row of loaded.data?.chartRows ?? []) {
    const label = groupLabel(row, settings.group, catalog, names);
    bars.set(label, (bars.get(label) ?? 0) + row.duration);
  }
  const labels = [...bars.keys()];

  return (
    <section class="reports">
      <h1>Reports</h1>
      <ReportForm
        settings={settings}
        catalog={catalog}
        users={users}
        onApply={(s: ReportSettings) => navigate(settingsUrl(s))}
      />
      <p class="status" role="status">
        {status}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {report && (
        <>
          <div class="report-head">
            <p>
              <strong>{formatDuration(report.total.duration)}</strong> in {report.total.entries}{' '}
              {report.total.entries === 1 ? 'entry' : 'entries'},{' '}
              <span class="nowrap">{report.start}</span> – <span class="nowrap">{report.end}</span>
            </p>
            <div class="actions">
              <button type="button" onClick={() => download('report')}>
                Download report (CSV)
              </button>
              <button type="button" onClick={() => download('entries')}>
                Download entries (CSV)
              </button>
            </div>
          </div>
          {labels.length > 0 &&
            (isPeriod(settings.group) ? (
              <PeriodChart
                labels={labels}
                hours={labels.map((l) => Math.round(((bars.get(l) ?? 0) / 3600) * 100) / 100)}
                summary={`Hours per ${settings.group}, ${report.start} to ${report.end}`}
              />
            ) : (
              <RankedBars
                bars={labels.map((label) => ({ label, seconds: bars.get(label) ?? 0 }))}
              />
            ))}
          <ReportTable report={report} catalog={catalog} users={names} />
        </>
      )}
      {!report && !error && <p>Loading…</p>}
    </section>
  );
}
