// What the API's shapes (src/shapes/) are written with. Each builder returns the JSON
// Schema (2020-12, as OpenAPI 3.1 has it) that GET /v0/openapi.json serves, and its type
// also carries, for the compiler only, the TypeScript type of the values it describes
// (`Infer`). So one declaration is both the document's schema and the type the server's
// json.ts files and the web app (src/web/types.ts) use. Pure data, no imports: the web
// build and its tsconfig (DOM, no Node types) read src/shapes/ as they read src/web/.

/** Never set: the phantom key that holds a schema's value type, for the compiler alone. */
declare const VALUE: unique symbol;

/** A JSON Schema describing values of type T. */
export interface Schema<T> {
  readonly [VALUE]: T;
}

/** The TypeScript type of the values a schema (or a component) describes. */
export type Infer<S> =
  S extends Schema<infer T> ? T : S extends { readonly schema: Schema<infer T> } ? T : never;

/** More JSON Schema keywords, shown as they are (description, minimum, pattern …). */
export type Keywords = Readonly<Record<string, unknown>>;

type Json = Record<string, unknown>;
const schema = <T>(json: Json): Schema<T> => json as unknown as Schema<T>;

export const string = (keywords: Keywords = {}) => schema<string>({ type: 'string', ...keywords });
export const integer = (keywords: Keywords = {}) =>
  schema<number>({ type: 'integer', ...keywords });
export const boolean = (keywords: Keywords = {}) =>
  schema<boolean>({ type: 'boolean', ...keywords });
export const nul = () => schema<null>({ type: 'null' });

/** Exactly `value`. */
export const constant = <const V extends string | number | boolean>(
  value: V,
  keywords: Keywords = {},
) => schema<V>({ const: value, ...keywords });

/** One of `values`. */
export const oneOfValues = <const V extends string>(
  values: readonly V[],
  keywords: Keywords = {},
) => schema<V>({ enum: values, ...keywords });

export const array = <T>(items: Schema<T>, keywords: Keywords = {}) =>
  schema<T[]>({ type: 'array', items, ...keywords });

/** An object of any keys, each value of `values`. */
export const record = <T>(values: Schema<T>, keywords: Keywords = {}) =>
  schema<Record<string, T>>({ type: 'object', additionalProperties: values, ...keywords });

/** `s` or null: a second `type` when `s` has one, else oneOf [s, null]. */
export function nullable<T>(s: Schema<T>, keywords: Keywords = {}): Schema<T | null> {
  const json = s as unknown as Json;
  return typeof json.type === 'string'
    ? schema({ ...json, type: [json.type, 'null'], ...keywords })
    : schema({ oneOf: [s, nul()], ...keywords });
}

/** Any of the schemas. */
export const anyOf = <const S extends readonly Schema<unknown>[]>(
  schemas: S,
  keywords: Keywords = {},
) => schema<Infer<S[number]>>({ anyOf: schemas, ...keywords });

type Properties = Readonly<Record<string, Schema<unknown>>>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type ObjectOf<P extends Properties, R extends keyof P> = Simplify<
  { -readonly [K in R]: Infer<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: Infer<P[K]> }
>;

/** A closed object's schema; `properties` keeps its keys' types for whoever lists them. */
export type ObjectSchema<P extends Properties, T> = Schema<T> & {
  readonly type: 'object';
  readonly properties: P;
  readonly required: readonly string[];
  readonly additionalProperties: false;
};

/** A closed object (no other key) of which the `required` keys must be present. */
export const object = <const P extends Properties, const R extends keyof P & string = never>(
  properties: P,
  required: readonly R[] = [],
  keywords: Keywords = {},
) =>
  schema<ObjectOf<P, R>>({
    type: 'object',
    properties,
    required,
    additionalProperties: false,
    ...keywords,
  }) as ObjectSchema<P, ObjectOf<P, R>>;

/**
 * An object as the API shows it: closed, every key present (SPEC §1: unset is null, never
 * absent) but the `optional` ones, which only some requests add.
 */
export const shown = <const P extends Properties, const O extends keyof P & string = never>(
  properties: P,
  optional: readonly O[] = [],
  keywords: Keywords = {},
) =>
  object(
    properties,
    Object.keys(properties).filter(
      (key) => !(optional as readonly string[]).includes(key),
    ) as Exclude<keyof P & string, O>[],
    keywords,
  );

/** A named schema of the document (components/schemas/<name>) and the `$ref` to it. */
export interface Component<S> {
  readonly name: string;
  readonly schema: S;
  readonly ref: Schema<Infer<S>>;
}

export const component = <S extends Schema<unknown>>(name: string, s: S): Component<S> => ({
  name,
  schema: s,
  ref: schema({ $ref: `#/components/schemas/${name}` }),
});

/**
 * Compiles only when A and B have the same keys: `sameKeys<A, B>(true)`, else the error
 * names the keys only one of them has. It holds what a write's validation accepts (a
 * resource's valibot schema, which has SPEC §7's texts) to the shape the document gives it.
 */
export const sameKeys = <A, B>(
  _same: [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
    ? true
    : `only in one: ${Extract<Exclude<keyof A, keyof B> | Exclude<keyof B, keyof A>, string>}`,
): void => {};
