// The tests' seeded randomness, so generated inputs are the same on every run and every engine:
// `rng` for streams of numbers, `Rng` (the library's generator, src/random.ts) for integers,
// shuffles and 64-bit values.
import { Random } from '../../src/random.js';

/** A small seeded PRNG (splitmix32-style): a stream of uniform numbers in [0, 1). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32;
  };
}

/** The library's seeded generator, with 64-bit draws for tests of u64 keys. */
export class Rng extends Random {
  /** Returns the next uniform u64 (two 32-bit draws, high word first). */
  u64(): bigint {
    const hi = this.nextU32();
    return (BigInt(hi) << 32n) | BigInt(this.nextU32());
  }
}

/** Random bytes. */
export function randomBytes(r: () => number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(r() * 256);
  return out;
}

/** Random words from a vocabulary of `vocab` words. */
export function randomWords(r: () => number, n: number, vocab = 500): string[] {
  return Array.from({ length: n }, () => `w${Math.floor(r() * vocab).toString(36)}`);
}
