// Slugs for what an import creates, made from names (SPEC §1's slug rule): lower-case ASCII
// letters and digits in hyphen-joined groups, at least one letter, at most 64 characters;
// a numeric suffix when the slug is taken (`website`, `website-2`, …).
import { isSlug } from '../identifiers';

const MAX = 64;

/** The slug a name reads as: `Café Website (2024)` → `cafe-website-2024`. */
export function slugOf(name: string, fallback: string): string {
  let s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!/[a-z]/.test(s)) s = s === '' ? fallback : `${fallback}-${s}`;
  return s.slice(0, MAX).replace(/-+$/, '');
}

/** The first of `base`, `base-2`, `base-3`, … that is not taken (and is a slug). */
export function freeSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const s = `${base.slice(0, MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (isSlug(s) && !taken(s)) return s;
  }
}
