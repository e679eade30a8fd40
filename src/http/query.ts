// Query-string helpers with the exact Bad Query Value errors of SPEC §6.
import { badQueryValue } from '../errors';

/** Absent, `false` or `0` → false; empty, `true` or `1` → true; anything else → kind 11. */
export function booleanParam(query: URLSearchParams, key: string): boolean {
  const value = query.get(key);
  if (value === null) return false;
  const v = value.toLowerCase();
  if (v === '' || v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw badQueryValue(key, value);
}

/**
 * Every value of a repeatable parameter, each resolved by `resolve` (to an id, or to
 * itself once checked); kind 11 for the first value it cannot resolve.
 */
export function listParam<T>(
  query: URLSearchParams,
  key: string,
  resolve: (value: string) => T | undefined,
): T[] {
  return query.getAll(key).map((value) => {
    const resolved = resolve(value);
    if (resolved === undefined) throw badQueryValue(key, value);
    return resolved;
  });
}

/** The first occurrence of a parameter wins (SPEC §6), checked by `valid`. */
export function firstParam(
  query: URLSearchParams,
  key: string,
  valid: (value: string) => boolean,
): string | undefined {
  const value = query.get(key);
  if (value === null) return undefined;
  if (!valid(value)) throw badQueryValue(key, value);
  return value;
}

export interface Paging {
  /** 0 = no limit */
  limit: number;
  skip: number;
}

const isCount = (v: string) => /^\d{1,15}$/.test(v);

export function pagingParams(query: URLSearchParams, defaultLimit: number): Paging {
  const limit = firstParam(query, 'limit', isCount);
  const skip = firstParam(query, 'skip', isCount);
  return {
    limit: limit === undefined ? defaultLimit : Number(limit),
    skip: skip === undefined ? 0 : Number(skip),
  };
}

/**
 * The parameters of GET /v0/<things>/:slug (projects, activities): whether to include
 * revisions. A deleted object released its slugs, so include_deleted cannot reach it by
 * slug: that parameter is only checked, like every boolean parameter.
 */
export function bySlugParams(query: URLSearchParams): { withParents: boolean } {
  booleanParam(query, 'include_deleted');
  return { withParents: booleanParam(query, 'include_revisions') };
}
