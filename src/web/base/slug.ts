// Slugs made from names, for forms that offer one (SPEC §1: lower-case letters and digits
// in groups joined by single hyphens, with a letter).

/** A slug from a name: `Ganeti Web Manager` → `ganeti-web-manager` (SPEC §1 shape). */
export function slugOf(name: string, fallback: string): string {
  const slug = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return /[a-z]/.test(slug) ? slug : fallback;
}
