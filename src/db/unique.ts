// The partial unique indexes are the final guard on live slugs (SPEC §8): when another
// process wins a race the insert fails with this code, and services report kind 8.
export function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}
