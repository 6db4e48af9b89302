/**
 * The one seeded generator of the library: sampling in the mirror algorithms, the reference sample
 * of signature evaluation, the planted-collection generator. Mulberry32: 32-bit state, period
 * 2^32, passes the usual statistical batteries; ample for choosing samples, and identical in every
 * JavaScript engine. `Random.stream(seed, label)` derives a stream per use, so adding a sampling
 * step never shifts the samples of another.
 */

/** FNV-1a over a string's UTF-16 code units: derives a stream's seed from a label. */
function fnv1a(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A deterministic pseudo-random stream (mulberry32). */
export class Random {
  private state: number;

  /** Takes a 32-bit seed. */
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Takes a 32-bit seed and a label naming the use; returns that use's stream (seed ^ FNV-1a(label)). */
  static stream(seed: number, label: string): Random {
    return new Random(seed ^ fnv1a(label));
  }

  /** Returns the next 32-bit unsigned integer. */
  nextU32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Returns a uniform number in [0, 1) (a multiple of 2^-32). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** Returns a uniform integer in [0, n), n ≤ 2^32 (multiply-shift; bias below 2^-20 for n < 2^12). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Shuffles `items` in place (Fisher–Yates) and returns it. */
  shuffle<A extends { length: number; [i: number]: unknown }>(items: A): A {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }

  /** Returns k distinct indices of [0, n), sorted ascending (partial Fisher–Yates). */
  sampleIndices(n: number, k: number): Uint32Array {
    if (k >= n) return Uint32Array.from({ length: n }, (_, i) => i);
    const pool = Uint32Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < k; i++) {
      const j = i + this.int(n - i);
      const t = pool[i];
      pool[i] = pool[j];
      pool[j] = t;
    }
    return pool.subarray(0, k).sort();
  }
}

/** Takes a 32-bit seed; returns a function drawing uniform numbers in [0, 1) from `new Random(seed)`. */
export function mulberry32(seed: number): () => number {
  const r = new Random(seed);
  return () => r.next();
}
