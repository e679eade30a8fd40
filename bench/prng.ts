// A small seeded PRNG (sfc32) so the generated data set is the same on every machine.

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
  /** A version-4 UUID (lower-case), drawn from this generator. */
  uuid(): string;
}

export function createRng(seed: number): Rng {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed >>> 0;
  const next32 = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 16; i++) next32(); // mix the seed in
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
  const rng: Rng = {
    next: () => next32() / 4294967296,
    int: (min, max) => min + Math.floor(rng.next() * (max - min + 1)),
    pick: (items) => items[Math.floor(rng.next() * items.length)] as (typeof items)[number],
    chance: (p) => rng.next() < p,
    uuid() {
      const w0 = next32();
      const w1 = next32();
      const w2 = next32();
      const w3 = next32();
      return (
        `${hex(w0, 8)}-${hex(w1 >>> 16, 4)}-${hex(((w1 & 0x0fff) | 0x4000) >>> 0, 4)}-` +
        `${hex(((w2 >>> 16) & 0x3fff) | 0x8000, 4)}-${hex(w2 & 0xffff, 4)}${hex(w3, 8)}`
      );
    },
  };
  return rng;
}
