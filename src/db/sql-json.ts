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
 * `format('{"key":%s,…}', expr, …)`: the JSON object of the fields, each expression
 * giving its value as JSON text already (a number, `json_quote(…)`, a stored JSON text).
 * One call writes the whole object: cheaper per row than json_object, which parses and
 * quotes each value again.
 */
export function formatJsonSql<T>(fields: SqlOf<T>): string {
  const entries = Object.entries<string>(fields);
  const template = entries.map(([key]) => `"${key}":%s`).join(',');
  return `format('{${template}}', ${entries.map(([, sql]) => sql).join(', ')})`;
}

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
