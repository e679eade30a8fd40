// A set of row keys (format.ts rowKey: 22 base64 characters of a SHA-256) packed in one
// typed array. A dry run remembers every key of the file to find its duplicate rows; as
// a Set of strings a million keys held ~150 MB (each key a sliced string that keeps its
// 44-character digest alive, plus the Set's entry): the dry run's peak RSS was 320 MB.
// Here a key is its first 20 characters (120 bits of the digest: two different rows of
// any file share them with a probability far below that of a disk error), 16 bytes in an
// open-addressing table at most three quarters full: ~32 MB for a million rows.

const SIX_BITS = new Int8Array(128).fill(-1);
'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((c, i) => {
  SIX_BITS[c.charCodeAt(0)] = i;
});

const WORDS = 4;
/** Marks a used slot (a key's word 0 has 30 bits: this one is never part of it). */
const USED = 1 << 30;

export class KeySet {
  private slots = new Int32Array(1024 * WORDS);
  private mask = 1023;
  private count = 0;
  private readonly w = new Int32Array(WORDS);

  get size(): number {
    return this.count;
  }

  /** Adds the key; false when it was there already. */
  add(key: string): boolean {
    this.pack(key);
    const found = this.find();
    if (found >= 0) return false;
    this.put(-found - 1);
    if (++this.count * 4 > (this.mask + 1) * 3) this.grow();
    return true;
  }

  has(key: string): boolean {
    this.pack(key);
    return this.find() >= 0;
  }

  /** The key's 20 first characters, 5 per word, into `w` (word 0 marked used). */
  private pack(key: string): void {
    for (let i = 0; i < WORDS; i++) {
      let v = i === 0 ? USED : 0;
      for (let j = 0; j < 5; j++) {
        const c = SIX_BITS[key.charCodeAt(i * 5 + j) & 127] as number;
        if (c < 0) throw new Error(`not a row key: ${key}`);
        v |= c << (6 * (4 - j));
      }
      this.w[i] = v;
    }
  }

  /** The slot holding `w` (≥ 0), or −(the free slot where it goes) − 1. */
  private find(): number {
    const { slots, w } = this;
    let slot = (w[1] as number) & this.mask;
    for (;;) {
      const at = slot * WORDS;
      const first = slots[at] as number;
      if (first === 0) return -slot - 1;
      if (
        first === w[0] &&
        slots[at + 1] === w[1] &&
        slots[at + 2] === w[2] &&
        slots[at + 3] === w[3]
      ) {
        return slot;
      }
      slot = (slot + 1) & this.mask;
    }
  }

  private put(slot: number): void {
    this.slots.set(this.w, slot * WORDS);
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let at = 0; at < old.length; at += WORDS) {
      if (old[at] === 0) continue;
      this.w.set(old.subarray(at, at + WORDS));
      this.put(-this.find() - 1);
    }
  }
}
