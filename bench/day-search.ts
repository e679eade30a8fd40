// The search over N of bench/day.ts: double from `start` until a day fails, then bisect
// between the last pass and the first failure until they are within `precision` of the
// pass (or 5 people apart); a step that would not fit the time left is not begun.

const round5 = (x: number) => Math.max(5, Math.round(x / 5) * 5);

export async function searchCapacity(options: {
  start: number;
  precision: number;
  /** Plays a day of N people: did it pass? */
  tryPeople: (people: number) => Promise<boolean>;
  /** Would a day of N people still fit the time budget? */
  fits: (people: number) => boolean;
}): Promise<{ passed?: number; failed?: number }> {
  let lo: number | undefined;
  let hi: number | undefined;
  let next = options.start;
  for (;;) {
    if (!options.fits(next)) break;
    if (await options.tryPeople(next)) lo = next;
    else hi = next;
    if (hi === undefined) next = next * 2;
    else if (lo === undefined) {
      next = round5(hi / 2);
      if (next >= hi) break;
    } else {
      if (hi - lo <= Math.max(5, lo * options.precision)) break;
      next = round5((lo + hi) / 2);
      if (next <= lo || next >= hi) break;
    }
  }
  return { passed: lo, failed: hi };
}
