// LSH banding over k-value signatures: b bands of r rows; two documents are candidates when all
// r values of some band agree, which happens with probability 1 − (1 − J^r)^b. (b, r) are chosen
// as datasketch does: minimise w_fp · ∫₀ᵗ P(J) dJ + w_fn · ∫ₜ¹ (1 − P(J)) dJ over b·r ≤ k.
import { HI as HI_WORD, LO as LO_WORD, words } from '../sketch/columns.js';

// Word positions as module constants: imported bindings are slower to read in hot loops.
const HI = HI_WORD, LO = LO_WORD;

/** Bands and rows for a threshold, with the weighted false-positive / false-negative areas. */
export interface LshParams {
  bands: number;
  rows: number;
  falsePositive: number;
  falseNegative: number;
}

function integrate(f: (x: number) => number, a: number, b: number): number {
  // Composite Simpson with 256 intervals: P(J) is smooth, error far below what tells (b, r) apart.
  const n = 256, h = (b - a) / n;
  let sum = f(a) + f(b);
  for (let i = 1; i < n; i++) sum += (i % 2 ? 4 : 2) * f(a + i * h);
  return (sum * h) / 3;
}

/** Chooses (bands, rows) for k signature values and a threshold (weights default 0.5 / 0.5). */
export function lshParams(k: number, threshold: number, fpWeight = 0.5, fnWeight = 0.5): LshParams {
  let best: LshParams = { bands: 1, rows: k, falsePositive: 1, falseNegative: 1 };
  let bestError = Infinity;
  for (let b = 1; b <= k; b++) {
    const maxR = Math.floor(k / b);
    for (let r = 1; r <= maxR; r++) {
      const p = (s: number) => 1 - (1 - s ** r) ** b;
      const fp = integrate(p, 0, threshold);
      const fn = integrate((s) => 1 - p(s), threshold, 1);
      const error = fpWeight * fp + fnWeight * fn;
      if (error < bestError) { bestError = error; best = { bands: b, rows: r, falsePositive: fp, falseNegative: fn }; }
    }
  }
  return best;
}

/**
 * One 64-bit key per band per document (CSR with `bands` values per row, rows sorted): band j of
 * document d hashes j and its r signature values. Documents in `skip` (empty sketches) get none.
 */
export function bandKeys(signature: BigUint64Array, n: number, k: number, p: LshParams, skip?: (d: number) => boolean): { values: BigUint64Array; offsets: Uint32Array } {
  const sig = words(signature);
  const offsets = new Uint32Array(n + 1);
  for (let d = 0; d < n; d++) offsets[d + 1] = offsets[d] + (skip?.(d) ? 0 : p.bands);
  const values = new BigUint64Array(offsets[n]);
  const out = words(values);
  for (let d = 0; d < n; d++) {
    if (offsets[d + 1] === offsets[d]) continue;
    for (let j = 0; j < p.bands; j++) {
      let h1 = Math.imul(j + 1, 0x9e3779b1) ^ 0x243f6a88, h2 = Math.imul(j + 1, 0x85ebca77) ^ 0x13198a2e;
      for (let r = 0; r < p.rows; r++) {
        const e = d * k + j * p.rows + r;
        h1 = mix(h1, sig[2 * e + LO]); h1 = mix(h1, sig[2 * e + HI]);
        h2 = mix(h2 ^ 0x5bd1e995, sig[2 * e + HI]); h2 = mix(h2, sig[2 * e + LO]);
      }
      const o = offsets[d] + j;
      out[2 * o + HI] = fmix(h1 ^ p.rows); out[2 * o + LO] = fmix(h2 ^ p.bands);
    }
    sortRow(out, offsets[d], offsets[d + 1]);
  }
  return { values, offsets };
}

function mix(h: number, v: number): number {
  // MurmurHash3's block step.
  let k = Math.imul(v, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function fmix(h: number): number {
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function sortRow(w: Uint32Array, from: number, to: number): void {
  for (let i = from + 1; i < to; i++) {
    const h = w[2 * i + HI], l = w[2 * i + LO];
    let j = i - 1;
    while (j >= from && (w[2 * j + HI] > h || (w[2 * j + HI] === h && w[2 * j + LO] > l))) {
      w[2 * (j + 1) + HI] = w[2 * j + HI]; w[2 * (j + 1) + LO] = w[2 * j + LO]; j--;
    }
    w[2 * (j + 1) + HI] = h; w[2 * (j + 1) + LO] = l;
  }
}
