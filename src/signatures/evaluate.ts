/**
 * Evaluation as in Di Iorio et al. §3. Precision: of the pages returned (in at least one colliding
 * pair), the share confirmed by the slow exact check — the cosine of bags of words reaches
 * `threshold` with one of the pages it collides with. Recall: the share of a reference set of pages
 * known to have a (near-)replica that is returned. The paper sampled 100 such pages by hand; here
 * the reference is given, or sampled: pages in a seeded random order, each kept when an exact
 * cosine scan over the whole collection finds a partner at or above the threshold.
 */
import { intOption, numberOption, optionError, rejectUnknown } from '../errors.js';
import { Random } from '../random.js';
import { bagCosine, type BagsOfWords } from './bags.js';
import { cliqueGroups, findCollisions, type CollisionPairs } from './collisions.js';
import { scorePairs, type JaccardPairs, type ShingleSets } from './pair-evaluation.js';
import type { Signatures } from './signatures.js';

/** Options of `sampleReference`. */
export interface ReferenceOptions {
  /** Pages wanted in the reference set. Default 100 (the paper's sample). */
  size?: number;
  /** Cosine of bags of words at or above which two pages are (near-)replicas. Default 0.9. */
  threshold?: number;
  /** Seed of the sampling order. Default 0. */
  seed?: number;
  /** Give up after scanning this many pages (each scan costs one pass over the postings of its words). Default 5000. */
  maxScan?: number;
}

/** Precision and recall of one (C, D) setting. */
export interface PrPoint {
  /** 'D = 0.05' for a curve along C, 'RP only' for the curve along D with HM unconstrained. */
  curve: string;
  C: number;
  D: number;
  pairs: number;
  /** Groups that do not chain (every two members collide). */
  groups: number;
  /** Pages in at least one colliding pair. */
  returned: number;
  /** Returned pages confirmed by the exact check. */
  correct: number;
  precision: number;
  recall: number;
  /** Pair level, with `exact`: colliding pairs with exact shingle Jaccard ≥ the precision level, over all colliding pairs. */
  pairPrecision?: number;
  /** Pair level, with `exact`: pairs with exact Jaccard ≥ the recall level that collide, over all such pairs. */
  pairRecall?: number;
  /** Pairs with exact Jaccard ≥ the recall level, and of those colliding. */
  pairsWanted?: number;
  pairsFound?: number;
}

/** Exact shingle sets and the pairs over the recall level, for the pair-level measures. */
export interface ExactPairs {
  sets: ShingleSets;
  wanted: JaccardPairs;
  /** Exact Jaccard a colliding pair needs to count as correct (default 0.8). */
  precisionAt?: number;
}

/** Options of `precisionRecall`. */
export interface SweepOptions {
  /** HM tolerances of the curves along C. Default [0.02, 0.05, 0.1, 0.2]. */
  C?: number[];
  /** RP tolerance of each curve along C. Default [0.02, 0.035, 0.05]. */
  D?: number[];
  /** RP tolerances of the RP-only curve (C = 2, beyond any HM distance). Default [0.01, 0.02, 0.035, 0.05, 0.1]. */
  rpOnlyD?: number[];
  /** Exact-check cosine threshold. Default 0.9. */
  threshold?: number;
  /** Passed to `findCollisions`. Default 50,000,000. */
  maxPairs?: number;
  /** Also measure pair precision and recall against exact shingle Jaccard. Default: not measured. */
  exact?: ExactPairs;
}

/** C standing for "HM unconstrained": HM signatures lie in [0, 1], so no distance reaches 2. */
export const RP_ONLY_C = 2;

/** Inverted index over bags: for each distinct word, the (document, count) postings. */
class Postings {
  private readonly order: Uint32Array;
  private readonly docOf: Uint32Array;
  constructor(private readonly bags: BagsOfWords) {
    const { words, offsets } = bags;
    this.docOf = new Uint32Array(bags.terms.length);
    for (let d = 0; d < bags.size; d++) this.docOf.fill(d, offsets[d], offsets[d + 1]);
    this.order = Uint32Array.from({ length: bags.terms.length }, (_, i) => i)
      .sort((x, y) => words[2 * x + 1] - words[2 * y + 1] || words[2 * x] - words[2 * y] || x - y);
  }

  /** Takes a document; calls back with every other document sharing a word and their dot product. */
  dots(a: number, dot: Float64Array, touched: number[]): void {
    const { words, offsets, counts } = this.bags;
    for (let t = offsets[a]; t < offsets[a + 1]; t++) {
      const hi = words[2 * t + 1], lo = words[2 * t];
      // First posting of this word: binary search on (hi, lo).
      let l = 0, h = this.order.length;
      while (l < h) {
        const mid = (l + h) >>> 1, u = this.order[mid];
        const c = words[2 * u + 1] - hi || words[2 * u] - lo;
        if (c < 0) l = mid + 1; else h = mid;
      }
      for (let i = l; i < this.order.length; i++) {
        const u = this.order[i];
        if (words[2 * u + 1] !== hi || words[2 * u] !== lo) break;
        const b = this.docOf[u];
        if (b === a) continue;
        if (dot[b] === 0) touched.push(b);
        dot[b] += counts[t] * counts[u];
      }
    }
  }
}

/** Takes bags and options; returns a reference set: sampled DocIds (ascending) that have a partner with cosine ≥ threshold. */
export function sampleReference(bags: BagsOfWords, options: ReferenceOptions = {}): Uint32Array {
  rejectUnknown(options, ['size', 'threshold', 'seed', 'maxScan'], 'sampleReference');
  const size = intOption('size', options.size, 100, 1, 2 ** 31);
  const threshold = numberOption('threshold', options.threshold, 0.9, 0, 1);
  const seed = intOption('seed', options.seed, 0, 0, 0xffffffff);
  const maxScan = intOption('maxScan', options.maxScan, 5000, 1, 2 ** 31);
  const n = bags.size;
  const order = new Random(seed).shuffle(Uint32Array.from({ length: n }, (_, i) => i));
  const index = new Postings(bags);
  const dot = new Float64Array(n);
  const touched: number[] = [];
  const out: number[] = [];
  for (let i = 0; i < Math.min(n, maxScan) && out.length < size; i++) {
    const a = order[i];
    if (bags.norms[a] === 0) continue;
    index.dots(a, dot, touched);
    let found = false;
    for (const b of touched) {
      if (!found && dot[b] / (bags.norms[a] * bags.norms[b]) >= threshold - 1e-12) found = true;
      dot[b] = 0;
    }
    touched.length = 0;
    if (found) out.push(a);
  }
  return Uint32Array.from(out).sort();
}


/**
 * Takes bags, colliding pairs, the reference set and the cosine threshold (and a cosine cache
 * shared across settings); returns precision and recall of those collisions.
 */
export function evaluateCollisions(bags: BagsOfWords, pairs: CollisionPairs, reference: ArrayLike<number>, threshold = 0.9, cache = new Map<number, number>()):
  Pick<PrPoint, 'pairs' | 'returned' | 'correct' | 'precision' | 'recall'> {
  const n = bags.size;
  // 0 = not returned, 1 = returned and not yet confirmed, 2 = confirmed by a partner.
  const state = new Uint8Array(n);
  const cosine = (a: number, b: number) => {
    const key = a * n + b;
    let c = cache.get(key);
    if (c === undefined) cache.set(key, (c = bagCosine(bags, a, b)));
    return c;
  };
  for (let i = 0; i < pairs.a.length; i++) {
    const a = pairs.a[i], b = pairs.b[i];
    if (state[a] === 0) state[a] = 1;
    if (state[b] === 0) state[b] = 1;
    if (state[a] === 2 && state[b] === 2) continue;
    if (cosine(a, b) >= threshold - 1e-12) state[a] = state[b] = 2;
  }
  let returned = 0, correct = 0, hit = 0;
  for (let p = 0; p < n; p++) {
    if (state[p] > 0) returned++;
    if (state[p] === 2) correct++;
  }
  for (let i = 0; i < reference.length; i++) if (state[reference[i]] > 0) hit++;
  return {
    pairs: pairs.a.length,
    returned,
    correct,
    precision: returned === 0 ? 1 : correct / returned,
    recall: reference.length === 0 ? 0 : hit / reference.length,
  };
}

function tolerances(name: string, value: unknown, fallback: number[]): number[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'number' || !(v > 0) || !Number.isFinite(v))) {
    throw optionError(name, 'non-empty array of numbers > 0', value);
  }
  return [...value];
}

/** Takes bags, signatures, a reference set and the sweep; returns precision–recall points per (C, D), curve by curve. */
export function precisionRecall(bags: BagsOfWords, sig: Signatures, reference: ArrayLike<number>, options: SweepOptions = {}): PrPoint[] {
  rejectUnknown(options, ['C', 'D', 'rpOnlyD', 'threshold', 'maxPairs', 'exact'], 'precisionRecall');
  const Cs = tolerances('C', options.C, [0.02, 0.05, 0.1, 0.2]);
  const Ds = tolerances('D', options.D, [0.02, 0.035, 0.05]);
  const rpOnly = tolerances('rpOnlyD', options.rpOnlyD, [0.01, 0.02, 0.035, 0.05, 0.1]);
  const threshold = numberOption('threshold', options.threshold, 0.9, 0, 1);
  const maxPairs = options.maxPairs;
  const cache = new Map<number, number>();
  const k = sig.params.k;
  const point = (curve: string, C: number, D: number): PrPoint => {
    const pairs = findCollisions(sig.rp, sig.hm, k, { C, D, maxPairs });
    const e = evaluateCollisions(bags, pairs, reference, threshold, cache);
    const groups = cliqueGroups(sig.size, pairs).length;
    const point: PrPoint = { curve, C, D, pairs: e.pairs, groups, returned: e.returned, correct: e.correct, precision: e.precision, recall: e.recall };
    if (options.exact) {
      const x = scorePairs(options.exact.sets, pairs, options.exact.wanted, options.exact.precisionAt ?? 0.8);
      Object.assign(point, { pairPrecision: x.pairPrecision, pairRecall: x.pairRecall, pairsWanted: x.wanted, pairsFound: x.found });
    }
    return point;
  };
  const out: PrPoint[] = [];
  for (const D of Ds) for (const C of Cs) out.push(point(`D = ${D}`, C, D));
  for (const D of rpOnly) out.push(point('RP only', RP_ONLY_C, D));
  return out;
}
