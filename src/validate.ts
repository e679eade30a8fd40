// Request objects are checked with valibot schemas whose field messages are the
// "expected" words of SPEC §7; this is the one place a valibot issue becomes the exact
// Bad Object text.
import * as v from 'valibot';
import { isCalendarDate } from './dates';
import { jsonType, missingField, unknownField, wrongType } from './errors';
import { isSlug, isUsername } from './identifiers';

type Entries = v.ObjectEntries;

/**
 * Parses `input` against a strict object schema. Unknown fields are reported first
 * (`<object> does not have a <field> field`), then missing and mistyped ones, in the
 * schema's field order.
 */
export function parseObject<E extends Entries>(
  schema: v.StrictObjectSchema<E, undefined>,
  input: unknown,
  object: string,
): v.InferOutput<v.StrictObjectSchema<E, undefined>> {
  const record = requestRecord(input);
  for (const key of Object.keys(record)) {
    if (!Object.hasOwn(schema.entries, key)) throw unknownField(object, key);
  }
  const result = v.safeParse(schema, record, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const key = String(issue.path?.[0]?.key ?? '');
  if (!Object.hasOwn(record, key) || record[key] === undefined) throw missingField(object, key);
  throw wrongType(object, key, issue.message, jsonType(record[key]));
}

/** The request's `object` as a record: kind 4 when it is missing or not a JSON object. */
export function requestRecord(input: unknown): Record<string, unknown> {
  if (input === undefined) throw missingField('request', 'object');
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw wrongType('request', 'object', 'object', jsonType(input));
  }
  return input as Record<string, unknown>;
}

// Field schemas shared by the resources. The second argument of v.message is the
// "should be <expected>" wording.

const emptyToNull = (s: string | null) => (s === '' ? null : s);

export const requiredText = (max: number) =>
  v.message(
    v.pipe(v.string(), v.minLength(1), v.maxLength(max)),
    `string of 1 to ${max} characters`,
  );

/** Optional free text: null clears, '' sets it empty. */
export const optionalText = (max: number) =>
  v.optional(
    v.message(
      v.nullable(v.pipe(v.string(), v.maxLength(max))),
      `string of at most ${max} characters`,
    ),
  );

/** Optional typed string: null clears and so does '' (web forms send empty strings). */
export const optionalTyped = (check: (s: string) => boolean, expected: string) =>
  v.optional(
    v.message(
      v.pipe(
        v.nullable(
          v.pipe(
            v.string(),
            v.check((s) => s === '' || check(s)),
          ),
        ),
        v.transform(emptyToNull),
      ),
      expected,
    ),
  );

export const optionalBoolean = () => v.optional(v.message(v.boolean(), 'boolean'));

export const slug = () => v.message(v.pipe(v.string(), v.check(isSlug)), 'slug');
/**
 * An array of at most `max` items, checked in this order: an array at all, its length,
 * then each item. The length comes before any item is looked at, so an oversized array
 * (1 MiB holds 200,000 short strings) costs one comparison, not a check or a lookup per
 * element. `tooLong` words the length refusal ("array of at most N ..."); the other
 * refusals take the wording of a surrounding v.message.
 */
export const boundedArray = <TItem extends v.GenericSchema>(
  item: TItem,
  max: number,
  tooLong?: string,
) =>
  v.pipe(
    // v.custom, not v.array(v.unknown()): the latter already visits every element.
    v.custom<unknown[]>(Array.isArray),
    v.maxLength(max, tooLong),
    v.array(item),
  );

/**
 * An array of at most `max` slugs with no message of its own for a bad item: wrap it in
 * v.message so that a bad item reports the list's wording ("array of ... slugs").
 */
export const slugArray = (max: number, tooLong?: string) =>
  boundedArray(v.pipe(v.string(), v.check(isSlug)), max, tooLong);
export const username = () => v.message(v.pipe(v.string(), v.check(isUsername)), 'username');
export const calendarDate = () => v.message(v.pipe(v.string(), v.check(isCalendarDate)), 'date');

export function isHttpUri(s: string, max = 2048): boolean {
  if (s.length > max) return false;
  try {
    const url = new URL(s);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const isEmail = (s: string): boolean =>
  s.length <= 254 && /^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$/.test(s);
