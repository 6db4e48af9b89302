/**
 * Seeded randomness for the sampling steps of the mirror algorithms (IP cluster pairs, the
 * document-frequency restriction, the mirroring test's path permutation). Mulberry32: 32-bit
 * state, period 2^32, passes the usual statistical batteries; ample for choosing samples, and
 * identical in every JavaScript engine. Each use derives its own stream from (seed, label), so
 * adding a sampling step never shifts the samples of another.
 */

/** The default seed of every mirror algorithm ('mirr' in ASCII). */
export const DEFAULT_SEED = 0x6d697272;

/** FNV-1a over a string's UTF-16 code units: derives a stream's seed from a label. */
function fnv1a(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A deterministic pseudo-random stream. */
export class Random {
  private state: number;

  /** Takes a 32-bit seed and a label naming the use (mixed into the seed). */
  constructor(seed: number, label = '') {
    this.state = (seed ^ fnv1a(label)) >>> 0;
  }

  /** Returns the next 32-bit unsigned integer (mulberry32). */
  nextU32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Returns a uniform integer in [0, n), n ≤ 2^32 (multiply-shift; bias below 2^-20 for n < 2^12). */
  int(n: number): number {
    return Math.floor((this.nextU32() / 4294967296) * n);
  }

  /** Shuffles `items` in place (Fisher–Yates) and returns it. */
  shuffle<T>(items: T[]): T[] {
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
