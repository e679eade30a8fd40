// An import's report as text for the terminal (`admin import-from` without --json).
import {
  type ImportReport,
  type KindReport,
  type NamedLine,
  NO_SUCH_USER,
  type PersonLine,
} from './engine';

const hours = (seconds: number) => (seconds / 3600).toFixed(2);

function kind<L extends PersonLine | NamedLine>(
  title: string,
  k: KindReport<L>,
  dry: boolean,
  show: (line: L) => string,
): string[] {
  const out = [
    `${title}: ${k.matched} matched, ${k.created} ${dry ? 'to create' : 'created'}, ${k.skipped} skipped`,
  ];
  for (const line of k.list) {
    if (line.status === 'matched') continue;
    out.push(
      `  ${line.status === 'created' ? (dry ? 'create' : 'created') : 'skipped'} ${show(line)}${line.reason ? ` (${line.reason})` : ''}: ${line.rows} rows`,
    );
  }
  return out;
}

export function reportText(r: ImportReport): string {
  const dry = r.dry_run;
  const lines = [
    `${dry ? 'Dry run of' : 'Imported'} ${r.format}: ${r.rows} rows read, ${r.entries.created} entries ${dry ? 'to create' : 'created'}, ${r.entries.skipped} skipped`,
    ...kind('People', r.people, dry, (l) => `${l.person}${l.username ? ` as ${l.username}` : ''}`),
    ...(r.people.list.some((l) => l.reason === NO_SUCH_USER)
      ? ['  (--create-users creates the people no user matches)']
      : []),
    ...kind('Projects', r.projects, dry, (l) => `${l.name}${l.slug ? ` (${l.slug})` : ''}`),
    ...kind('Activities', r.activities, dry, (l) => `${l.name}${l.slug ? ` (${l.slug})` : ''}`),
  ];
  if (r.entries.by_person_project.length > 0) {
    lines.push('Entries by person and project:');
    for (const t of r.entries.by_person_project) {
      lines.push(`  ${t.user} / ${t.project}: ${t.entries} entries, ${hours(t.seconds)} h`);
    }
  }
  if (r.entries.reasons.length > 0) {
    lines.push('Rows skipped:');
    for (const s of r.entries.reasons) lines.push(`  ${s.reason}: ${s.rows}`);
  }
  if (r.problems.length > 0) {
    lines.push(`Problems (${r.problems.length} of ${r.problem_count}):`);
    for (const p of r.problems) lines.push(`  line ${p.line}: ${p.problem}`);
  }
  const dropped = r.dropped.filter((d) => d.values > 0);
  if (dropped.length > 0) {
    lines.push(
      `Columns dropped (no place for them here): ${dropped.map((d) => `${d.column} (${d.values} values)`).join(', ')}`,
    );
  }
  if (r.stopped) lines.push(`Stopped at line ${r.stopped.line}: ${r.stopped.error}`);
  return lines.join('\n');
}
