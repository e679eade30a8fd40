// What changed between two revisions of an object, in words (issue 34: history shows
// what each revision changed, not only its state). Pure functions: each history view
// lists its own fields with these.

/** "label: before → after" when the value changed ('—' for an empty one); else nothing. */
export function fieldChange(
  label: string,
  before: string | null | undefined,
  after: string | null | undefined,
): string[] {
  if ((before ?? '') === (after ?? '')) return [];
  if (!before) return [`${label} set: ${after}`];
  if (!after) return [`${label} cleared (was ${before})`];
  return [`${label}: ${before} → ${after}`];
}

/** "label added: x, y" and "label removed: z" for two lists of names. */
export function listChange(label: string, before: readonly string[], after: readonly string[]) {
  const added = after.filter((x) => !before.includes(x));
  const removed = before.filter((x) => !after.includes(x));
  return [
    ...(added.length > 0 ? [`${label} added: ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`${label} removed: ${removed.join(', ')}`] : []),
  ];
}

/** Deleted or restored between two revisions. */
export function deletionChange(before: string | null, after: string | null): string[] {
  if (before === after || (before && after)) return [];
  return after ? ['deleted'] : ['restored'];
}
