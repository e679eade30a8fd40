// SQL whose result shape must match a TypeScript type: the columns of a row type, and JSON
// that SQLite writes itself (json_object), for speed — a list of hundreds of rows is then
// one text column per row, and a row's history one subquery. Either key list is written
// once, as a map from each key of the type to the SQL that reads it, so the compiler
// checks that the SQL gives exactly that type's keys.

/** For each field of T, the SQL expression that reads it. */
export type SqlOf<T> = { readonly [K in keyof T]-?: string };

/** `json_object('key', expr, …)` of the fields, in their order. */
export function jsonObjectSql<T>(fields: SqlOf<T>): string {
  const pairs = Object.entries<string>(fields).map(([key, sql]) => `'${key}', ${sql}`);
  return `json_object(${pairs.join(', ')})`;
}

/**
 * How one value of an object written by SQL is read: `json`, an expression that gives it
 * as JSON already (a number, a stored JSON text); `text`, one whose text is written as a
 * JSON string; `name`, a name borrowed from a small table by `key` (see NameLookup).
 */
export type JsonValueSql =
  | { readonly json: string }
  | { readonly text: string }
  | { readonly name: NameLookup; readonly key: string };

/**
 * A borrowed name (a username, a project's slugs) as JSON text, two ways: `joined`, the
 * expression that reads it from a table the statement joins; `lookup`, a statement that
 * reads it by its key (?1), with which json_rows() looks each one up once per list.
 */
export interface NameLookup {
  readonly joined: string;
  readonly lookup: string;
}

/** For each field of T, how its value is read: the one description of an object's SQL. */
export type JsonFieldsOf<T> = { readonly [K in keyof T]-?: JsonValueSql };

/**
 * `format('{"key":%s,…}', expr, …)`: one object of the fields, names joined. One call
 * writes the whole object: cheaper per row than json_object, which parses and quotes
 * each value again.
 */
export function formatObjectSql<T>(fields: JsonFieldsOf<T>): string {
  const entries = Object.entries<JsonValueSql>(fields);
  const template = entries.map(([key]) => `"${key}":%s`).join(',');
  const values = entries.map(([, v]) =>
    'json' in v ? v.json : 'text' in v ? `json_quote(${v.text})` : v.name.joined,
  );
  return `format('{${template}}', ${values.join(', ')})`;
}

/** The error json_rows() stops a list with when it has more rows than its `most`. */
export const MORE_ROWS = 'json_rows: more rows than the most asked for';

/**
 * The SELECT list of a list read whole, in one pass: `call` (a json_rows call whose
 * `most` is the statement's first parameter, `?`) and the count of its rows. Counting
 * apart, in an index of its own, had cost a fifth of a month's list.
 */
const withCount = (call: string) => `${call}, count(*)`;

/**
 * A list read whole as one statement: its body, the JSON array of the objects of the
 * fields, one per row (a BLOB), and its row count. The body is written by
 * `json_rows(template, lookups, most, value, …)`, an aggregate of our SQLite extension
 * (src/db/native/json_rows.c): the same bytes as formatObjectSql per row
 * (test/api/times/listed-json.test.ts), a month's list in ~60 % of the time that format()
 * and group_concat took: values go straight into one buffer, and each name is looked up
 * once per list rather than joined once per row. The statement's first parameter is the
 * most rows the list may have: past it, it fails with MORE_ROWS (readWholeList).
 *
 * The call is worked out once, here; the function returned writes a list's SELECT from
 * `from` (FROM … WHERE, with no joins for the names): with no `order`, the rows are taken
 * as they come (a range of a key already in list order), else through a subquery that
 * orders them (SQLite keeps the ORDER BY of a FROM subquery under an aggregate of it).
 */
export function jsonRows<T>(fields: JsonFieldsOf<T>): (from: string, order?: string) => string {
  const entries = Object.entries<JsonValueSql>(fields);
  const lookups: string[] = [];
  const template = entries
    .map(([key, v]) => {
      if ('json' in v) return `"${key}":%s`;
      if ('text' in v) return `"${key}":%q`;
      let n = lookups.indexOf(v.name.lookup);
      if (n < 0) n = lookups.push(v.name.lookup) - 1;
      return `"${key}":%${n + 1}`;
    })
    .join(',');
  if (
    lookups.length > 9 ||
    lookups.some((l) => /[;']/.test(l)) ||
    entries.some(([k]) => /[%'"\\]/.test(k))
  ) {
    throw new Error('jsonRows: a key, or a lookup, that json_rows cannot take');
  }
  const values = entries.map(([, v]) => ('json' in v ? v.json : 'text' in v ? v.text : v.key));
  const call = (args: string[]) =>
    withCount(`json_rows('{${template}}', '${lookups.join('; ')}', ?, ${args.join(', ')})`);
  const direct = call(values);
  const overSubquery = call(values.map((_, i) => `v${i}`));
  const columns = values.map((sql, i) => `${sql} AS v${i}`).join(', ');
  return (from, order) =>
    order === undefined
      ? `SELECT ${direct} FROM ${from}`
      : `SELECT ${overSubquery} FROM (SELECT ${columns} FROM ${from} ${order})`;
}

/**
 * A list read whole (as jsonRows) over a column whose values are JSON objects already:
 * the array of them, and their count.
 */
export const jsonArrayOfSql = (column: string) => withCount(`json_rows('%s', '', ?, ${column})`);

/** `expr AS key, …`: a SELECT list whose result columns are exactly T's keys. */
export function columnsSql<T>(fields: SqlOf<T>): string {
  return Object.entries<string>(fields)
    .map(([key, sql]) => (sql.endsWith(`.${key}`) ? sql : `${sql} AS ${key}`))
    .join(', ');
}

/**
 * A JSON array of objects written by jsonObjectSql(fields), parsed. The keys are T's by
 * construction (the `fields` it was built from are SqlOf<T>); the values are SQLite's.
 */
export function parseSqlJsonArray<T>(text: string, _builtFrom: SqlOf<T>): T[] {
  return JSON.parse(text) as T[];
}
