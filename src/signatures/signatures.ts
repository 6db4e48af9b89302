/**
 * The pair of signatures of Di Iorio et al. (2003): Random Projection (RP, §2.1) of each page's bag
 * of words, normalized over the repository into [0, 1]^K, and Hyperlink Map (HM, §2.2), the RP
 * signatures propagated from children to parents through the links (equation 1).
 */
import { optionError } from '../errors.js';
import type { Csr } from '../graph/csr.js';
import type { BagsOfWords } from './bags.js';
import { projectBags, propagateHyperlinkMap } from './kernels.js';
import { signatureParams, type SignatureOptions, type SignatureParams } from './options.js';

/** Both signatures of every page, n × K row-major. */
export interface Signatures {
  size: number;
  params: SignatureParams;
  /** R^p: normalized RP signatures, each component in [0, 1]. */
  rp: Float64Array;
  /** X^p: HM signatures, scaled so the largest component over all pages is 1. */
  hm: Float64Array;
}

/**
 * Takes bags of words and params; returns R̂^p = Π D^p, n × K (before normalization), with
 * Π's entries derived from (word, j, seed) rather than stored.
 */
export function randomProjection(bags: BagsOfWords, params: Pick<SignatureParams, 'k' | 'seed' | 'weighting'>): Float64Array {
  const weights = new Float64Array(bags.counts.length);
  for (let d = 0; d < bags.size; d++) {
    const scale = params.weighting === 'unit' && bags.norms[d] > 0 ? 1 / bags.norms[d] : 1;
    for (let t = bags.offsets[d]; t < bags.offsets[d + 1]; t++) weights[t] = bags.counts[t] * scale;
  }
  return projectBags(bags.terms, weights, bags.offsets, params.k, params.seed);
}

/**
 * Takes raw projections (n × k); returns (R̂^p − R̂^m) scaled per dimension into [0, 1], R̂^m the
 * per-dimension minimum over the repository (§2.1). A dimension where all pages agree maps to 0.
 */
export function normalizeProjections(raw: Float64Array, k: number): Float64Array {
  const n = raw.length / k;
  const lo = new Float64Array(k).fill(Infinity), hi = new Float64Array(k).fill(-Infinity);
  for (let p = 0; p < n; p++) {
    for (let j = 0; j < k; j++) {
      const v = raw[p * k + j];
      if (v < lo[j]) lo[j] = v;
      if (v > hi[j]) hi[j] = v;
    }
  }
  const out = new Float64Array(raw.length);
  for (let j = 0; j < k; j++) {
    const span = hi[j] - lo[j];
    if (!(span > 0)) continue;
    for (let p = 0; p < n; p++) out[p * k + j] = Math.min(1, (raw[p * k + j] - lo[j]) / span);
  }
  return out;
}

/** Takes RP signatures (n × k), the links and params; returns the HM signatures (equation 1, scaled by 1 / x_M). */
export function hyperlinkMap(rp: Float64Array, k: number, links: Csr, params: Pick<SignatureParams, 'gamma' | 'iterations'>): Float64Array {
  const n = rp.length / k;
  if (links.offsets.length !== n + 1) throw optionError('links', `CSR offsets over ${n} pages (length ${n + 1})`, links.offsets.length);
  if (links.offsets[n] !== links.targets.length) throw optionError('links', `offsets ending at targets.length ${links.targets.length}`, links.offsets[n]);
  for (let e = 0; e < links.targets.length; e++) {
    if (links.targets[e] >= n) throw optionError('links', `targets below ${n}`, links.targets[e]);
  }
  return propagateHyperlinkMap(rp, k, links.offsets, links.targets, params.gamma, params.iterations);
}

/** Takes bags of words, the out-links over the same pages and options; returns both signatures. */
export function computeSignatures(bags: BagsOfWords, links: Csr, options: SignatureOptions = {}): Signatures {
  const params = signatureParams(options);
  const rp = normalizeProjections(randomProjection(bags, params), params.k);
  const hm = hyperlinkMap(rp, params.k, links, params);
  return { size: bags.size, params, rp, hm };
}
