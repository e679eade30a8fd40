// The report of an import from another tracker (issue 31; POST /v0/imports, `admin
// import-from --json`, docs/import.md): what was matched, created and skipped, per kind.
import {
  array,
  boolean,
  component,
  type Infer,
  integer,
  nullable,
  object,
  oneOfValues,
  type Schema,
  shown,
  string,
} from './kit';

export const IMPORT_FORMATS = ['toggl', 'clockify', 'harvest', 'kimai', 'solidtime'] as const;

const count = integer({ minimum: 0 });
const status = oneOfValues(['matched', 'created', 'skipped'] as const);

const PersonLine = object(
  {
    person: string({ description: 'As the file names them: the address, else the name' }),
    username: nullable(string()),
    status,
    reason: string(),
    rows: count,
  },
  ['person', 'username', 'status', 'rows'],
);

const NamedLine = object(
  {
    name: string(),
    slug: nullable(string({ description: 'Of a created one (or one to create)' })),
    status,
    reason: string(),
    rows: count,
  },
  ['name', 'slug', 'status', 'rows'],
);

const kind = <T>(line: Schema<T>) =>
  shown({ matched: count, created: count, skipped: count, list: array(line) });

export const ImportReport = component(
  'ImportReport',
  shown(
    {
      format: oneOfValues(IMPORT_FORMATS),
      dry_run: boolean({ description: 'Nothing was written; `created` counts what would be' }),
      rows: integer({ minimum: 0, description: 'Records read, the header not counted' }),
      people: kind(PersonLine),
      projects: kind(NamedLine),
      activities: kind(NamedLine),
      entries: shown({
        created: count,
        skipped: count,
        reasons: array(shown({ reason: string(), rows: count })),
        by_person_project: array(
          shown({ user: string(), project: string(), entries: count, seconds: count }),
        ),
      }),
      problems: array(shown({ line: count, problem: string() }), {
        description: 'The first 20 rows skipped for a problem, with their line in the file',
      }),
      problem_count: count,
      dropped: array(shown({ column: string(), values: count }), {
        description: 'Columns with no place here, and how many rows had a value in each',
      }),
      stopped: nullable(shown({ line: count, error: string() })),
    },
    [],
    { description: 'What an import did, or (dry run) would do' },
  ),
);
export type ImportReport = Infer<typeof ImportReport.schema>;
export type PersonLine = Infer<typeof PersonLine>;
export type NamedLine = Infer<typeof NamedLine>;
