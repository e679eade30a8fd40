// Import (issue 31): another tracker's export into timetrack. Choose the tool and the file;
// "Check" sends it as a dry run and shows the report as tables (people to match or create,
// projects and activities to create, entries per person and project, what is skipped and
// dropped); "Import" sends it again for real. The file goes as the request body, its upload
// progress shown: the server reads it as it imports, so that is the import's progress.
// Admins and site managers import everyone's rows; anyone else their own (docs/import.md).
import { useId, useState } from 'preact/hooks';
import { api, errorText, type ImportReport, type ImportRequest } from '../api';
import { useCatalog } from '../base/catalog';
import { ScrollBox } from '../base/ScrollBox';

const TOOLS: [string, string][] = [
  ['toggl', 'Toggl Track (detailed report, CSV)'],
  ['clockify', 'Clockify (detailed report, CSV)'],
  ['harvest', 'Harvest (detailed time report, CSV)'],
  ['kimai', 'Kimai (timesheet export, CSV or Excel)'],
  ['solidtime', 'solidtime (time entries export, CSV)'],
];

const hours = (seconds: number) => (seconds / 3600).toFixed(2);

type Progress = { sent: number; total: number } | undefined;

export function Import(props: { username: string }) {
  const { catalog } = useCatalog(props.username);
  const id = useId();
  const [format, setFormat] = useState('toggl');
  const [file, setFile] = useState<File | undefined>();
  const [createUsers, setCreateUsers] = useState(false);
  const [tags, setTags] = useState(false);
  const [defaultActivity, setDefaultActivity] = useState('');
  const [timezone, setTimezone] = useState('');
  const [report, setReport] = useState<ImportReport | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [progress, setProgress] = useState<Progress>();
  const busy = progress !== undefined;
  const manager = !!catalog && (catalog.me.site_admin || catalog.me.site_manager);

  const run = async (dryRun: boolean) => {
    if (!file) return;
    const req: ImportRequest = {
      format,
      dryRun,
      createUsers: createUsers && manager,
      tagsAsActivities: tags,
      defaultActivity: defaultActivity || undefined,
      timezone: timezone.trim() || undefined,
    };
    setError(undefined);
    setStatus(dryRun ? 'Checking the file…' : 'Importing…');
    setProgress({ sent: 0, total: file.size });
    try {
      const r = await api.importFile(file, req, (sent, total) => setProgress({ sent, total }));
      setReport(r);
      setStatus(
        dryRun
          ? `Checked: ${r.entries.created} entries would be imported, ${r.entries.skipped} rows skipped`
          : `Imported ${r.entries.created} entries (${r.entries.skipped} rows skipped)`,
      );
    } catch (err) {
      setStatus('');
      setError(errorText(err));
    } finally {
      setProgress(undefined);
    }
  };
  const changed = () => {
    setReport(undefined);
    setStatus('');
    setError(undefined);
  };

  return (
    <section class="import">
      <h1>Import</h1>
      <p>
        Bring the history of another time tracker: its own export, as you download it there.
        {catalog && !manager && ' You import your own entries; rows of other people are skipped.'}
      </p>
      <form
        class="import-form"
        onSubmit={(e) => {
          e.preventDefault();
          run(true);
        }}
      >
        <label for={`${id}-tool`}>Tool</label>
        <select
          id={`${id}-tool`}
          value={format}
          onChange={(e) => {
            setFormat(e.currentTarget.value);
            changed();
          }}
        >
          {TOOLS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label for={`${id}-file`}>Export file</label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".csv,.xlsx,text/csv"
          onChange={(e) => {
            setFile(e.currentTarget.files?.[0]);
            changed();
          }}
        />
        <label for={`${id}-activity`}>Activity for rows without a task</label>
        <select
          id={`${id}-activity`}
          value={defaultActivity}
          onChange={(e) => {
            setDefaultActivity(e.currentTarget.value);
            changed();
          }}
        >
          <option value="">The project's default (else skip the row)</option>
          {(catalog?.activities ?? []).map((a) => (
            <option key={a.slug} value={a.slug}>
              {a.name}
            </option>
          ))}
        </select>
        <label for={`${id}-zone`}>Time zone of UTC times (optional)</label>
        <input
          id={`${id}-zone`}
          type="text"
          placeholder="Europe/Berlin"
          value={timezone}
          onInput={(e) => {
            setTimezone(e.currentTarget.value);
            changed();
          }}
        />
        {manager && (
          <label class="inline">
            <input
              type="checkbox"
              checked={createUsers}
              onChange={(e) => {
                setCreateUsers(e.currentTarget.checked);
                changed();
              }}
            />
            Create the people no user matches (inactive, without a password)
          </label>
        )}
        <label class="inline">
          <input
            type="checkbox"
            checked={tags}
            onChange={(e) => {
              setTags(e.currentTarget.checked);
              changed();
            }}
          />
          Tags become activities too
        </label>
        <div class="form-actions">
          <button type="submit" class="primary" disabled={!file || busy}>
            Check
          </button>
          {report?.dry_run && (
            <button type="button" class="primary" disabled={busy} onClick={() => run(false)}>
              Import {report.entries.created} entries
            </button>
          )}
        </div>
      </form>
      {progress && (
        <p>
          <label for={`${id}-progress`}>{status} </label>
          <progress id={`${id}-progress`} max={progress.total || 1} value={progress.sent}>
            {Math.round((progress.sent / (progress.total || 1)) * 100)} %
          </progress>
        </p>
      )}
      <p class="status" role="status">
        {progress ? '' : status}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {report && <ReportTables report={report} />}
    </section>
  );
}

function ReportTables(props: { report: ImportReport }) {
  const r = props.report;
  const verb = (status: string) =>
    status === 'created' ? (r.dry_run ? 'to create' : 'created') : status;
  const dropped = r.dropped.filter((d) => d.values > 0);
  const entriesLine = `Entries ${verb('created')}: ${r.entries.created}`;
  return (
    <div class="import-report">
      <KindTable
        title="People"
        kind={r.people}
        headings={['In the file', 'User']}
        cells={(p) => [p.person, p.username ?? '—']}
        verb={verb}
      />
      {(['projects', 'activities'] as const).map((k) => (
        <KindTable
          key={k}
          title={k === 'projects' ? 'Projects' : 'Activities'}
          kind={r[k]}
          headings={['Name', 'Slug']}
          cells={(n) => [n.name, n.slug ?? '—']}
          verb={verb}
        />
      ))}
      {r.entries.by_person_project.length === 0 ? (
        <p class="muted">{entriesLine}</p>
      ) : (
        <ScrollBox label="Entries per person and project">
          <table class="list">
            <caption>{entriesLine}</caption>
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Project</th>
                <th scope="col">Entries</th>
                <th scope="col">Hours</th>
              </tr>
            </thead>
            <tbody>
              {r.entries.by_person_project.map((t) => (
                <tr key={`${t.user} ${t.project}`}>
                  <td>{t.user}</td>
                  <td>{t.project}</td>
                  <td>{t.entries}</td>
                  <td>{hours(t.seconds)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {r.entries.reasons.length > 0 && (
        <ScrollBox label="Rows skipped">
          <table class="list">
            <caption>Rows skipped: {r.entries.skipped}</caption>
            <thead>
              <tr>
                <th scope="col">Why</th>
                <th scope="col">Rows</th>
              </tr>
            </thead>
            <tbody>
              {r.entries.reasons.map((s) => (
                <tr key={s.reason}>
                  <td>{s.reason}</td>
                  <td>{s.rows}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {r.problems.length > 0 && (
        <ScrollBox label="Problems">
          <table class="list">
            <caption>
              Problems ({r.problems.length} of {r.problem_count})
            </caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Problem</th>
              </tr>
            </thead>
            <tbody>
              {r.problems.map((p) => (
                <tr key={p.line}>
                  <td>{p.line}</td>
                  <td>{p.problem}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollBox>
      )}
      {dropped.length > 0 && (
        <p>
          Columns dropped (no place for them here):{' '}
          {dropped.map((d) => `${d.column} (${d.values})`).join(', ')}
        </p>
      )}
    </div>
  );
}

/**
 * What the import does with the people, projects or activities of the file: a row each,
 * named by `cells` (what the file says, what it matches here), with its status and rows.
 */
function KindTable<L extends { status: string; reason?: string; rows: number }>(props: {
  title: string;
  kind: { matched: number; created: number; skipped: number; list: L[] };
  headings: [string, string];
  cells: (line: L) => [string, string];
  verb: (status: string) => string;
}) {
  const { kind, verb } = props;
  return (
    <ScrollBox label={props.title}>
      <table class="list cards">
        <caption>
          {props.title}: {kind.matched} matched, {kind.created} {verb('created')}, {kind.skipped}{' '}
          skipped
        </caption>
        <thead>
          <tr>
            <th scope="col">{props.headings[0]}</th>
            <th scope="col">{props.headings[1]}</th>
            <th scope="col">Status</th>
            <th scope="col">Rows</th>
          </tr>
        </thead>
        <tbody>
          {kind.list.map((line) => {
            const [named, here] = props.cells(line);
            return (
              <tr key={named}>
                <td>{named}</td>
                <td data-label={props.headings[1]}>{here}</td>
                <td data-label="Status">
                  {verb(line.status)}
                  {line.reason ? ` (${line.reason})` : ''}
                </td>
                <td data-label="Rows">{line.rows}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollBox>
  );
}
