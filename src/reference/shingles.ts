/**
 * The slow, obvious twin of assembly/shingles.ts (sh_*): w-shingles of the token fingerprints
 * and the permutation π, straight from their definitions.
 */
import { tokenFpsRef, type RefUnitOptions } from './tokens.js';
import { mixRef, rabinWordsRef } from './rabin.js';
import { DEFAULT_W } from '../sketch/options.js';

export interface RefSketchOptions extends RefUnitOptions { w?: number; seed?: bigint }

/** Every π(shingle) in order: windows of w token fingerprints (one window of all when fewer). */
export function shingleValuesRef(doc: Uint8Array | string, o: RefSketchOptions = {}): bigint[] {
  const w = o.w ?? DEFAULT_W, seed = o.seed ?? 0n;
  const t = tokenFpsRef(doc, o);
  if (t.length < w) return [mixRef(rabinWordsRef(t), seed)];
  const out: bigint[] = [];
  for (let i = 0; i + w <= t.length; i++) out.push(mixRef(rabinWordsRef(t.slice(i, i + w)), seed));
  return out;
}
