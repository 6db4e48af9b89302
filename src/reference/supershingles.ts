/** The slow, obvious twin of assembly/supershingles.ts (ss_*). */
import { rabinWordsRef } from './rabin.js';

/** Super-shingles of a sorted sketch: Rabin over each run of `size` consecutive values. */
export function superShinglesRef(sketch: bigint[], size: number): bigint[] {
  if (sketch.length <= size) return [rabinWordsRef(sketch)];
  const out: bigint[] = [];
  for (let i = 0; i + size <= sketch.length; i++) out.push(rabinWordsRef(sketch.slice(i, i + size)));
  return out;
}
