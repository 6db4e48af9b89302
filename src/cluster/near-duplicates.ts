// Broder, Glassman, Manasse and Zweig's clustering of a corpus: set identical documents aside,
// find candidate pairs (shared non-common shingles, shared super-shingles, or LSH bands), estimate
// resemblance and containment for each, and join pairs over the threshold with union-find. The
// candidate pairs are kept, so the final phase can be re-run with another policy (paper,
// "Basic clustering": "repeating the final phase ... for each different policy").
import { ResembleError, enumOption, intOption, numberOption, optionError, rejectUnknown } from '../errors.js';
import { checkColumns, type ClusterColumns, type PairEstimator, type RowColumns } from '../sketch/columns.js';
import { accepts, finalPhase, type ClusterPolicy, type Clusters } from './clusters.js';
import { setAside, type Equivalence, type EquivalenceLevel } from './equivalence.js';
import { SetEstimator } from '../sketch/row-estimates.js';
import type { MinChunkEstimates } from '../sketch/pair-estimates.js';
import { bandKeys, lshParams, type LshParams } from './lsh.js';
import { PairTableBuilder, type PairTable } from './pairs.js';
import { walkBounds, walkColumns, type PairTests, type WalkedPairs } from './walk.js';
import { listsRunner, postingsOnPool } from './postings-pool.js';
import { walkColumnsOnPool, walkColumnsRunner } from './walk-pool.js';
import { PREFIX_HITS, prefixKeys, prefixKeysOnPool, prefixLength, prefixRunner, type PrefixKeys } from './prefix.js';
import { UnionFind } from './union-find.js';
import { candidatePairs, nonEmpty, postingsOf, type CandidatePairs } from './candidate-pairs.js';

export { candidatePairs, nonEmpty, type CandidatePairs } from './candidate-pairs.js';
import type { Pool } from '../stream/pool.js';
import { NEAR_DUPLICATE_DEFAULTS } from './defaults.js';

/** Takes the prefix length, the threshold and s; returns the resemblance down to which prefix-keyed candidates are complete (0 when every value is keyed). */
export function completeAbove(prefix: number, threshold: number, s: number): number {
  return prefix > 0 ? Math.max(0, threshold - 4 * standardError(threshold, s)) : 0;
}

/** Standard error of an estimate of a proportion `x` from `n` sampled values: √(x(1 − x)/n). */
export function standardError(x: number, n: number): number {
  return n > 0 ? Math.sqrt(Math.max(0, x * (1 - x)) / n) : 0;
}

/** How candidate pairs are found. */
export type ClusterMethod = 'pairs' | 'super-shingles' | 'lsh';
/** Which member represents a cluster (ties by lowest DocId). */
export type RepresentativeRule = 'first' | 'earliest' | 'newest' | 'most-linked';

/** Options of `nearDuplicates`; every one is validated before work starts. */
export interface NearDuplicateOptions {
  /** Resemblance at which two documents join (default 0.5, the paper's). */
  threshold?: number;
  /** Also join when either document's containment in the other reaches this (default: off). */
  containment?: number;
  /** 'pairs' (default: count shared sketch values), 'super-shingles' (needs set.superShingles), 'lsh' (needs set.signature). */
  method?: ClusterMethod;
  /** Shingles (or super-shingles, bands) in more than this many documents are ignored (default 1000). */
  commonCap?: number;
  /** Equivalent documents set aside before clustering (default 'shingle': identical, lexical and shingle-equivalent). */
  equivalence?: EquivalenceLevel;
  /** Check candidates against the threshold (default true). `false` (super-shingles / lsh only) joins every
   *  candidate pair unchecked: faster, but on real crawls it joins pages far below the threshold. */
  verify?: boolean;
  /**
   * pairs with MIN_s sketches and no containment policy: each document's keys are its first `prefix`
   * non-common sketch values, and a pair is a candidate when it shares `prefixHits` of them (see
   * prefix.ts). Default 'auto': long enough that a pair four standard errors below the threshold
   * is missed once in a million (44 values at 0.5 with s = 128 and 2 hits); 0 keys every value
   * (Broder's original candidate step, quadratic in pages that share navigation).
   */
  prefix?: number | 'auto';
  /**
   * Prefix keys a pair must share to be a candidate, 1..16 (default 2; 'auto' prefixes are as long
   * as this needs). 1 takes every pair sharing a key: shorter prefixes, but on real documentation
   * about three times as many pairs estimated, nearly all far below the threshold.
   */
  prefixHits?: number;
  /** Pairs whose containment either way is below this are not kept for re-clustering (default min(0.2, threshold, containment)). */
  pairFloor?: number;
  /** 'first' (default: lowest DocId), 'earliest' / 'newest' (by `dates`), 'most-linked' (by `inlinks`). */
  representative?: RepresentativeRule;
  /** Crawl date per document, ms since 1970 (NaN when unknown); for earliest / newest. */
  dates?: ArrayLike<number>;
  /** In-link count per document; for most-linked. */
  inlinks?: ArrayLike<number>;
  /** lsh only: weights of false positives and false negatives when choosing bands (default 0.5 each). */
  falsePositiveWeight?: number;
  falseNegativeWeight?: number;
}

const KNOWN = ['threshold', 'containment', 'method', 'commonCap', 'equivalence', 'verify', 'pairFloor',
  'representative', 'dates', 'inlinks', 'falsePositiveWeight', 'falseNegativeWeight', 'prefix', 'prefixHits'] as const;

/** What the candidate step did. */
export interface CandidateStats {
  documents: number;
  method: ClusterMethod;
  /** Documents set aside as identical / lexically / shingle-equivalent to a kept one. */
  identical: number;
  lexical: number;
  shingle: number;
  /** Documents that went into the candidate step. */
  kept: number;
  postings: number;
  ignoredShingles: number;
  ignoredPostings: number;
  candidatePairs: number;
  retainedPairs: number;
  pairFloor: number;
  lsh?: LshParams;
  /** Keys per document in the candidate step (0: every sketch value). */
  prefix: number;
  /** Keys a pair shared to be a candidate (`prefixHits` with a prefix, else 1). */
  minHits: number;
  /** Resemblance down to which candidate pairs are complete (a recluster below it may miss pairs). */
  completeAbove: number;
  /** Pairs checked exactly (see `NearDuplicates.settle`); 0 until then. */
  exactChecked: number;
}

/** Validated options with defaults filled in. */
export interface Resolved {
  policy: ClusterPolicy;
  method: ClusterMethod;
  commonCap: number;
  equivalence: EquivalenceLevel;
  pairFloor: number;
  priority: Float64Array;
  fpWeight: number;
  fnWeight: number;
  /** Keys per document (0: all). */
  prefix: number;
  /** Keys a pair must share to be a candidate (prefixHits with a prefix, 1 without). */
  minHits: number;
}

function resolve(set: ClusterColumns, options: NearDuplicateOptions = {}): Resolved {
  rejectUnknown(options, KNOWN, 'nearDuplicates');
  return resolveNearDuplicateOptions(set, options, 'nearDuplicates');
}

/** Validates nearDuplicates' options (known keys checked by the caller) and fills in defaults; shared with the DuckDB path. */
export function resolveNearDuplicateOptions(set: RowColumns & Partial<Pick<ClusterColumns, 'signature' | 'superShingles'>>, options: NearDuplicateOptions, where: string): Resolved {
  const threshold = numberOption('threshold', options.threshold, NEAR_DUPLICATE_DEFAULTS.threshold, 0, 1);
  const containment = options.containment === undefined ? undefined : numberOption('containment', options.containment, 0, 0, 1);
  const method = enumOption('method', options.method, 'pairs', ['pairs', 'super-shingles', 'lsh'] as const);
  const commonCap = intOption('commonCap', options.commonCap, NEAR_DUPLICATE_DEFAULTS.commonCap, 1, 0x7fffffff);
  const equivalence = enumOption('equivalence', options.equivalence, NEAR_DUPLICATE_DEFAULTS.equivalence, ['none', 'identical', 'lexical', 'shingle'] as const);
  if (options.verify !== undefined && typeof options.verify !== 'boolean') throw optionError('verify', 'boolean', options.verify);
  if (options.verify === false && method === 'pairs') throw optionError('verify', 'true with method pairs (pairs are always verified)', options.verify);
  const verify = options.verify ?? true;
  const pairFloor = numberOption('pairFloor', options.pairFloor, Math.min(0.2, threshold, containment ?? 1), 0, 1);
  if (pairFloor > threshold) throw optionError('pairFloor', `number ≤ threshold (${threshold})`, pairFloor);
  if (containment !== undefined && pairFloor > containment) throw optionError('pairFloor', `number ≤ containment (${containment})`, pairFloor);
  const rule = enumOption('representative', options.representative, 'first', ['first', 'earliest', 'newest', 'most-linked'] as const);
  const fpWeight = numberOption('falsePositiveWeight', options.falsePositiveWeight, 0.5, 0, 1);
  const fnWeight = numberOption('falseNegativeWeight', options.falseNegativeWeight, 0.5, 0, 1);
  if (method !== 'lsh' && (options.falsePositiveWeight !== undefined || options.falseNegativeWeight !== undefined)) {
    throw optionError('falsePositiveWeight', 'no value unless method is lsh', options.falsePositiveWeight ?? options.falseNegativeWeight);
  }
  checkColumns(set, where);
  if (method === 'super-shingles' && !set.superShingles) throw new ResembleError('E_OPTION', 'method super-shingles needs sketches made with super-shingles (superShingle option)', { option: 'method' });
  if (method === 'lsh' && !set.signature) throw new ResembleError('E_OPTION', 'method lsh needs sketches made with a signature (k > 0)', { option: 'method' });
  const priority = priorities(set.size, rule, options.dates, options.inlinks);
  const prefixAllowed = method === 'pairs' && set.params.kind === 'min' && containment === undefined;
  const prefixHits = intOption('prefixHits', options.prefixHits, PREFIX_HITS, 1, 16);
  let prefix = 0;
  if (options.prefix !== undefined && options.prefix !== 'auto') {
    prefix = intOption('prefix', options.prefix, 0, 0, 4096);
    if (prefix > 0 && !prefixAllowed) throw optionError('prefix', '0 or auto unless method is pairs with MIN_s sketches and no containment policy', options.prefix);
    if (prefix > 0 && prefix < prefixHits) throw optionError('prefix', `0, auto or at least prefixHits (${prefixHits})`, options.prefix);
  } else if (prefixAllowed) prefix = prefixLength(completeAbove(1, threshold, set.params.s), set.params.s, prefixHits);
  if (options.prefixHits !== undefined && (!prefixAllowed || options.prefix === 0)) {
    throw optionError('prefixHits', 'no value unless documents are keyed by a prefix (method pairs, MIN_s sketches, no containment policy, prefix not 0)', options.prefixHits);
  }
  if (prefix >= set.params.s) prefix = 0;
  // without a prefix every value is a key and a pair sharing one is a candidate (Broder's)
  const minHits = prefix > 0 ? prefixHits : 1;
  return { policy: { threshold, containment, verify }, method, commonCap, equivalence, pairFloor, priority, fpWeight, fnWeight, prefix, minHits };
}

/** Priority per document for a representative rule: lower is preferred, ties by DocId. */
export function priorities(n: number, rule: RepresentativeRule, dates?: ArrayLike<number>, inlinks?: ArrayLike<number>): Float64Array {
  const p = new Float64Array(n);
  if (rule === 'first') { for (let d = 0; d < n; d++) p[d] = d; return p; }
  const col = rule === 'most-linked' ? inlinks : dates;
  const name = rule === 'most-linked' ? 'inlinks' : 'dates';
  if (!col || col.length !== n) throw optionError(name, `${n} values (one per document) for representative ${rule}`, col ? `${col.length} values` : undefined);
  for (let d = 0; d < n; d++) {
    const v = Number(col[d]);
    // Unknown dates and counts sort last.
    p[d] = Number.isNaN(v) ? Infinity : rule === 'earliest' ? v : -v;
  }
  return p;
}

/**
 * settleNear checks in two rounds when the pairs of highest estimate between two components are
 * at most this share of the near pairs (scale crawl: 1,066 of 11,216, 1,589 pages read back
 * instead of 6,033); else every near pair at once (generated crawls of families of four pages:
 * two rounds there checked 306,137 pairs of 383,647, yet read many pages twice and took longer).
 */
const ROUNDS_BELOW = 0.5;

/** Exact resemblance and containments of pairs, in the order of the indices they go with. */
export interface ExactValues {
  resemblance: ArrayLike<number>;
  containmentAB: ArrayLike<number>;
  containmentBA: ArrayLike<number>;
}

/** A clustered corpus: the kept candidate pairs, and clusters under the policy asked for. */
export class NearDuplicates {
  /** The clusters under the policy, made when first asked for (a run that settles pairs first makes them once). */
  private current?: Clusters;
  /** Per pair, once `settle` ran: 1 where its values are exact. */
  private checked?: Uint8Array;
  /** Per pair, once settleNear ran: 1 where it is near the policy and was left unchecked inside a component (no evidence). */
  private aside?: Uint8Array;

  private readonly rows: () => PairEstimator;

  constructor(
    /** The sketches clustered: ClusterColumns, or (with `estimator`) their columns without the values. */
    readonly set: RowColumns,
    readonly equivalence: Equivalence,
    readonly pairs: PairTable,
    readonly stats: CandidateStats,
    readonly policy: ClusterPolicy,
    private readonly priority: Float64Array,
    /** True when pairs below the floor were dropped (re-running needs thresholds ≥ the floor). */
    readonly verified: boolean,
    /** Makes an estimator of pairs of `set` (default: a SetEstimator over its values, which it must then have). */
    estimator?: () => PairEstimator,
  ) {
    if (!estimator && !('values' in set)) throw optionError('estimator', 'a pair estimator for sketches without their values', 'none');
    this.rows = estimator ?? (() => new SetEstimator(set as ClusterColumns));
  }

  /** An estimator of pairs of these sketches, by DocId (resemblance, containments and shared values). */
  estimator(): PairEstimator {
    return this.rows();
  }

  /** Clusters under the options' policy (and the exact values given to `settle`, if any). */
  get clusters(): Clusters {
    return (this.current ??= finalPhase(this.set.size, this.equivalence, this.pairs, this.policy, this.verified, this.priority, this.rows(), this.aside));
  }

  /** Re-runs the final phase with another threshold / containment policy; pairs are not recomputed. */
  recluster(policy: { threshold?: number; containment?: number; verify?: boolean } = {}): Clusters {
    rejectUnknown(policy, ['threshold', 'containment', 'verify'], 'recluster');
    const floor = Math.max(this.verified ? this.stats.pairFloor : 0, this.stats.completeAbove);
    const threshold = numberOption('threshold', policy.threshold, this.policy.threshold, floor, 1);
    if (policy.containment !== undefined && this.stats.prefix > 0) {
      throw optionError('containment', 'no value: candidates were keyed by prefix (cluster with prefix 0 or a containment policy to recluster by containment)', policy.containment);
    }
    const containment = policy.containment === undefined ? undefined : numberOption('containment', policy.containment, 0, floor, 1);
    if (policy.verify !== undefined && typeof policy.verify !== 'boolean') throw optionError('verify', 'boolean', policy.verify);
    if (policy.verify === false && this.stats.method === 'pairs') throw optionError('verify', 'true with method pairs', policy.verify);
    const verify = policy.verify ?? this.policy.verify;
    if (this.verified && this.stats.method !== 'pairs' && !verify) {
      throw optionError('verify', 'true: candidates below the pair floor were dropped when clustering with verify', verify);
    }
    return finalPhase(this.set.size, this.equivalence, this.pairs, { threshold, containment, verify }, this.verified,
      this.priority, this.rows());
  }

  /**
   * Takes a number of standard errors z; returns the indices of the pairs worth an exact check:
   * their estimate lies within z standard errors of the policy (resemblance threshold, or
   * containment), they are not settled yet, and they would join documents that the confident
   * pairs (estimate more than z standard errors over the policy), the pairs settled over the
   * policy and the equivalences leave apart. Checking only those makes the clusters those of the
   * exact values: a pair inside one component changes nothing. With `firstOfEach`, only the pair
   * of highest estimate between each two components (ties by lowest index): one of them found
   * over the policy joins the two, and the others need no check (`settleNear` takes those first).
   * Empty when candidates are not verified (every candidate joins).
   */
  uncertain(z = 3, firstOfEach = false): Uint32Array {
    if (!(typeof z === 'number' && z >= 0 && Number.isFinite(z))) throw optionError('z', 'a number ≥ 0', z);
    const scan = this.nearScan(z);
    return Uint32Array.from(firstOfEach ? scan.first : scan.between);
  }

  /**
   * One pass over the pairs for `uncertain` and `settleNear`: the near pairs not yet checked that
   * lie between two components (of the equivalences, the confident pairs and the pairs checked
   * over the policy), the one of highest estimate between each two components, and those inside
   * a component.
   */
  private nearScan(z: number): { between: number[]; first: number[]; inside: number[] } {
    const n = this.set.size, p = this.pairs, done = this.checked;
    if (!this.verified && !this.policy.verify) return { between: [], first: [], inside: [] };
    const { threshold: t, containment: c } = this.policy;
    const band = this.bands(z);
    const uf = new UnionFind(n);
    for (let d = 0; d < n; d++) { const v = this.equivalence.via[d]; if (v >= 0) uf.union(d, v); }
    // 0 far, 1 near, 2 confident (over the policy by more than z standard errors), by its estimate
    const state = new Uint8Array(p.count);
    for (let i = 0; i < p.count; i++) {
      const [er, ec] = band(i);
      const cmax = c === undefined ? 0 : Math.max(p.containmentAB[i], p.containmentBA[i]);
      state[i] = p.resemblance[i] >= t + er || (c !== undefined && cmax >= c + ec) ? 2 : p.resemblance[i] >= t - er || (c !== undefined && cmax >= c - ec) ? 1 : 0;
      if (done?.[i] === 1 ? accepts(p, i, this.policy, true) : state[i] === 2) uf.union(p.a[i], p.b[i]);
    }
    const between: number[] = [], inside: number[] = [];
    // the pair kept so far between two components, by their roots
    const first = new Map<number, number>();
    const margin = (i: number) => Math.max(p.resemblance[i] - t, c === undefined ? -Infinity : Math.max(p.containmentAB[i], p.containmentBA[i]) - c);
    for (let i = 0; i < p.count; i++) {
      if (state[i] !== 1 || done?.[i] === 1) continue;
      const ra = uf.find(p.a[i]), rb = uf.find(p.b[i]);
      if (ra === rb) { inside.push(i); continue; }
      between.push(i);
      const key = Math.min(ra, rb) * n + Math.max(ra, rb);
      const j = first.get(key);
      if (j === undefined || margin(i) > margin(j)) first.set(key, i);
    }
    return { between, first: [...first.values()].sort((x, y) => x - y), inside };
  }

  /**
   * Makes the clusters those of the exact values at the threshold, checking as few pairs as it
   * can: takes z and `check`, which returns the exact resemblance and containments of pairs (by
   * index; NaN where a page could not be read). First the pair of highest estimate between each
   * two components that pairs near the policy would join (`uncertain(z, true)`), then every pair
   * still near and between two components (`uncertain(z)`); or, when most components are joined
   * by one near pair (see ROUNDS_BELOW), every near pair at once. Near pairs never checked lie inside
   * a component then: they change no cluster and are left out of the clusters' evidence (their
   * estimate might be under the policy exactly). Returns the pairs that were near at the start
   * (`uncertain(z)` before any check) and the pairs checked.
   */
  async settleNear(z: number, check: (indices: Uint32Array) => Promise<ExactValues>): Promise<{ near: number; checked: number }> {
    if (!(typeof z === 'number' && z >= 0 && Number.isFinite(z))) throw optionError('z', 'a number ≥ 0', z);
    const start = this.nearScan(z);
    const near = start.between.length;
    if (near === 0) return { near, checked: 0 };
    // Two rounds pay when components are joined by many near pairs each (copies of one page in
    // several builds); when most are joined by one, a round of its own would read most pages twice.
    const rounds = start.first.length <= ROUNDS_BELOW * near;
    const firstRound = Uint32Array.from(rounds ? start.first : start.between);
    this.write(firstRound, await check(firstRound));
    // the second round: every near pair the first left between two components; the rest are inside one for good
    const next = rounds ? this.nearScan(z) : { between: [], inside: start.inside };
    const secondRound = Uint32Array.from(next.between);
    if (secondRound.length > 0) this.write(secondRound, await check(secondRound));
    const aside = new Uint8Array(this.pairs.count);
    for (const i of next.inside) aside[i] = 1;
    this.aside = aside;
    this.current = undefined;
    return { near, checked: firstRound.length + secondRound.length };
  }

  /**
   * Takes z, per DocId the template table its page was cut against (`tableOf`, content mode), and
   * which pages are mostly template (`mostlyTemplate`); returns the pairs worth the check across
   * templates (see cross-template.ts): their pages were cut against different tables; the
   * clusters leave them apart; and the content of a page that is mostly template is contained in
   * the other page's over the threshold, or within z standard errors under it (the check needs
   * it exactly over). Empty when candidates are not verified.
   */
  acrossTemplates(z: number, tableOf: (d: number) => number, mostlyTemplate: (d: number) => boolean): Uint32Array {
    if (!(typeof z === 'number' && z >= 0 && Number.isFinite(z))) throw optionError('z', 'a number ≥ 0', z);
    if (!this.verified && !this.policy.verify) return new Uint32Array(0);
    const p = this.pairs, of = this.clusters.clusterOf, off = this.set.offsets, s = this.set.params.s;
    const t = this.policy.threshold;
    const out: number[] = [];
    for (let i = 0; i < p.count; i++) {
      const a = p.a[i], b = p.b[i];
      if (of[a] >= 0 && of[a] === of[b]) continue;
      if (tableOf(a) === tableOf(b)) continue;
      const la = off[a + 1] - off[a], lb = off[b + 1] - off[b];
      const exactRows = this.checked?.[i] === 1 || (this.set.params.kind === 'min' && la < s && lb < s && la + lb - p.shared[i] <= s);
      const floor = t - (exactRows ? 0 : z * standardError(t, Math.max(1, Math.min(la, lb))));
      if ((p.containmentAB[i] >= floor && mostlyTemplate(a)) || (p.containmentBA[i] >= floor && mostlyTemplate(b))) out.push(i);
    }
    return Uint32Array.from(out);
  }

  /** Per pair, z standard errors of its resemblance and containment estimates at the policy (0 where the estimate is exact). */
  private bands(z: number): (i: number) => [number, number] {
    const { threshold: t, containment: c } = this.policy;
    const kind = this.set.params.kind, s = this.set.params.s, off = this.set.offsets, p = this.pairs;
    const out: [number, number] = [0, 0];
    return (i) => {
      const a = p.a[i], b = p.b[i];
      const la = off[a + 1] - off[a], lb = off[b + 1] - off[b];
      // A MIN_s row shorter than s holds every shingle, but the estimate still samples the s smallest
      // of the union: it is exact only when the union has at most s values.
      const sample = kind === 'min' ? (la < s && lb < s && la + lb - p.shared[i] <= s ? Infinity : s) : Math.max(1, la + lb - p.shared[i]);
      out[0] = Number.isFinite(sample) ? z * standardError(t, sample) : 0;
      out[1] = c === undefined || !Number.isFinite(sample) ? 0 : z * standardError(c, Math.max(1, Math.min(la, lb)));
      return out;
    };
  }

  /**
   * Takes a pair index; returns its exact resemblance and containments when both sketch rows hold
   * every shingle of their page (MIN_s rows shorter than s): no page needs reading. Else undefined.
   */
  exactFromRows(i: number): [number, number, number] | undefined {
    if (this.set.params.kind !== 'min') return undefined;
    const off = this.set.offsets, s = this.set.params.s, p = this.pairs;
    const a = p.a[i], b = p.b[i];
    const la = off[a + 1] - off[a], lb = off[b + 1] - off[b];
    if (!(la < s && lb < s) || la === 0 || lb === 0) return undefined;
    const x = p.shared[i];
    return [x / (la + lb - x), x / la, x / lb];
  }

  /**
   * Takes pair indices (from `uncertain`) and their exact resemblance and containments (over the
   * full shingle sets); writes them over the estimates and re-forms the clusters with them.
   */
  settle(indices: Uint32Array, exact: ExactValues): Clusters {
    this.write(indices, exact);
    return this.clusters;
  }

  /** Writes exact values over the estimates of pairs; the clusters are re-formed when next asked for. */
  private write(indices: Uint32Array, exact: ExactValues): void {
    const p = this.pairs;
    this.checked ??= new Uint8Array(p.count);
    if (exact.resemblance.length !== indices.length || exact.containmentAB.length !== indices.length || exact.containmentBA.length !== indices.length) {
      throw optionError('exact', `${indices.length} values in each column`, exact.resemblance.length);
    }
    for (let k = 0; k < indices.length; k++) {
      const i = indices[k];
      if (!(i < p.count)) throw optionError('indices', `pair indices 0..${p.count - 1}`, i);
      p.resemblance[i] = exact.resemblance[k];
      p.containmentAB[i] = exact.containmentAB[k];
      p.containmentBA[i] = exact.containmentBA[k];
      this.checked[i] = 1;
      if (this.aside) this.aside[i] = 0;
    }
    this.stats.exactChecked += indices.length;
    this.current = undefined;
  }
}

/**
 * Candidate pairs a range of the walk on a worker holds, about (`candidatePairsOnPool`: a range
 * holds at most this × WALK_STEPS_PER_PAIR counter steps, and there are at least four ranges a
 * worker). Before the workers walked the ranges themselves this thread walked them and sent the
 * pairs in chunks of this many: over the 1.46 M candidate pairs of the 20,000-page scale crawl,
 * process CPU time 1.61 s in chunks of 4,096, 1.49–1.54 s in chunks of 16,384, 1.50 s in chunks
 * of 32,768, 1.43–1.50 s in chunks of 65,536 or more, against 1.41–1.46 s inline.
 */
export const POOL_CHUNK_PAIRS = 32768;
/** Counter steps of the walk per candidate pair, about (a range of the walk holds chunkPairs × this at most). */
const WALK_STEPS_PER_PAIR = 8;

/**
 * candidatePairs for MIN_s sets with the walk and the estimates on a worker pool: this thread
 * builds the postings and the walk's columns in shared memory and splits the documents into ranges
 * of about the same walk; each worker walks a range, tests its pairs and estimates them (the kernel
 * of MinPairBatch), at most two ranges a worker in flight; ranges are taken back in order, so the
 * table is the one candidatePairs makes. (Walking on this thread beside the workers' estimates
 * took 534–554 ms on the scale crawl with 2 workers; on the workers, 498–529 ms.)
 */
export async function candidatePairsOnPool(set: ClusterColumns, keys: { values: BigUint64Array; offsets: Uint32Array }, docs: Uint32Array, cap: number, floor: number,
  pool: Pool, chunkPairs = POOL_CHUNK_PAIRS, minHits = 1, shortUnion = 0): Promise<CandidatePairs> {
  if (set.params.kind !== 'min') throw optionError('set', 'MIN_s sketches for estimates on a pool', set.params.kind);
  const s = set.params.s;
  // prefix keys made on the pool are on shared memory: their postings are built there too
  const post = keys.values !== set.values && keys.values.buffer instanceof SharedArrayBuffer && keys.offsets.buffer instanceof SharedArrayBuffer && keys.values.length >= PREFIX_POOL_MIN / 4
    ? await postingsOnPool(keys, docs, cap, prefixRunner(pool), listsRunner(pool), 2 * pool.size)
    : postingsOf(set, keys, docs, cap);
  const table = new PairTableBuilder();
  const rows = { values: set.values, offsets: set.offsets };
  // the walk's columns and the pair tests in shared memory; ranges of documents with about the same
  // walk each, several a worker (the last ones leave a worker idle a while), walked and estimated on
  // the workers, taken back in order
  const shared = <T extends Uint32Array | undefined>(v: T): T => {
    if (v === undefined || v.buffer instanceof SharedArrayBuffer) return v;
    const c = new Uint32Array(new SharedArrayBuffer(v.byteLength));
    c.set(v);
    return c as T;
  };
  const columns = post.docs.buffer instanceof SharedArrayBuffer && post.listStart.buffer instanceof SharedArrayBuffer
    ? await walkColumnsOnPool(post, set.size, walkColumnsRunner(pool), 2 * pool.size)
    : walkColumns(post, set.size, true);
  const tests: PairTests = {
    keyOffsets: shared(keys.offsets), minHits, shortUnion, rowOffsets: shared(set.offsets), s, floor,
    ...(keys.values === set.values && floor > 0 && post.ignoredPerDoc ? { ignored: shared(post.ignoredPerDoc) } : {}),
  };
  const bounds = walkBounds(columns, set.size, 4 * pool.size, WALK_STEPS_PER_PAIR * chunkPairs);
  const inflight: Promise<{ estimates: MinChunkEstimates; walked: WalkedPairs }>[] = [];
  let candidates = 0;
  const take = async () => {
    const { estimates: e, walked: w } = await inflight.shift()!;
    candidates += w.candidates;
    for (let k = 0; k < e.index.length; k++) table.push(w.a[k], w.b[k], w.hits[k], e.shared[k], e.resemblance[k], e.containmentAB[k], e.containmentBA[k]);
  };
  const depth = 2 * pool.size;
  for (let r = 0; r + 1 < bounds.length; r++) {
    const job = pool.walkMinPairs(rows, { columns, tests, from: bounds[r], to: bounds[r + 1] }, { s, floor });
    job.catch(() => undefined); // a later range failing while an earlier one is awaited is not unhandled: it is awaited in turn
    inflight.push(job);
    while (inflight.length >= depth) await take();
  }
  while (inflight.length > 0) await take();
  return { pairs: table.finish(), candidates, postings: post.docs.length, ignoredShingles: post.ignoredShingles, ignoredPostings: post.ignoredPostings };
}

/** What nearDuplicates decided before the candidate step: the options, the documents set aside, the keys. */
interface CandidatePlan {
  o: Resolved;
  eq: Equivalence;
  docs: Uint32Array;
  keys: { values: BigUint64Array; offsets: Uint32Array };
  lsh?: LshParams;
  common?: { ignoredShingles: number; ignoredPostings: number };
  verified: boolean;
  floor: number;
}

/** The documents set aside, and those of the candidate step. */
function kept(set: ClusterColumns, o: Resolved): { eq: Equivalence; docs: Uint32Array } {
  const eq = setAside(set, o.equivalence, o.priority);
  // Documents with an empty row have nothing to compare; they only join through equivalence.
  return { eq, docs: nonEmpty(set, eq.kept) };
}

function plan(set: ClusterColumns, o: Resolved, { eq, docs } = kept(set, o), prefixed?: PrefixKeys): CandidatePlan {
  const n = set.size;
  let keys: { values: BigUint64Array; offsets: Uint32Array } = set;
  let lsh: LshParams | undefined;
  let common: { ignoredShingles: number; ignoredPostings: number } | undefined;
  if (o.method === 'super-shingles') keys = set.superShingles!;
  else if (o.method === 'lsh') {
    lsh = lshParams(set.params.k, o.policy.threshold, o.fpWeight, o.fnWeight);
    keys = bandKeys(set.signature!, n, set.params.k, lsh, (d) => set.offsets[d + 1] === set.offsets[d]);
  } else if (o.prefix > 0) keys = common = prefixed ?? prefixKeys(set, docs, o.commonCap, o.prefix);
  const verified = o.method === 'pairs' || o.policy.verify;
  return { o, eq, docs, keys, lsh, common, verified, floor: verified ? o.pairFloor : 0 };
}

/** Entries (sketch values of the documents keyed) below which prefix keys are made on this thread: fewer cost less than the round trips. */
const PREFIX_POOL_MIN = 1 << 18;

/**
 * plan with the prefix keys made on the pool's workers (prefixKeysOnPool: the count of common
 * values and the keys, in ranges; 1.29 s of the reading thread's 14.5 s on 100,000 generated
 * pages when made here) when the rows are on SharedArrayBuffers and there are enough of them.
 */
async function planOnPool(set: ClusterColumns, o: Resolved, pool: Pool): Promise<CandidatePlan> {
  const onPool = o.method === 'pairs' && o.prefix > 0 && set.values.buffer instanceof SharedArrayBuffer && set.offsets.buffer instanceof SharedArrayBuffer
    && set.values.length >= PREFIX_POOL_MIN;
  if (!onPool) return plan(set, o);
  const k = kept(set, o);
  return plan(set, o, k, await prefixKeysOnPool(set, k.docs, o.commonCap, o.prefix, prefixRunner(pool), 2 * pool.size));
}

function clustered(set: ClusterColumns, p: CandidatePlan, c: CandidatePairs): NearDuplicates {
  const { o, eq, common } = p;
  const stats: CandidateStats = {
    documents: set.size, method: o.method, identical: eq.identical, lexical: eq.lexical, shingle: eq.shingle,
    kept: eq.kept.length, postings: c.postings, ignoredShingles: common ? common.ignoredShingles : c.ignoredShingles,
    ignoredPostings: common ? common.ignoredPostings : c.ignoredPostings,
    candidatePairs: c.candidates, retainedPairs: c.pairs.count, pairFloor: p.floor, lsh: p.lsh, prefix: o.prefix, minHits: o.minHits, completeAbove: completeAbove(o.prefix, o.policy.threshold, set.params.s), exactChecked: 0,
  };
  return new NearDuplicates(set, eq, c.pairs, stats, o.policy, o.priority, p.verified);
}

/** Clusters a sketch set into near-duplicate clusters with evidence (see NearDuplicateOptions). */
export function nearDuplicates(set: ClusterColumns, options?: NearDuplicateOptions): NearDuplicates {
  const p = plan(set, resolve(set, options));
  return clustered(set, p, candidatePairs(set, p.keys, p.docs, p.o.commonCap, p.floor, p.o.minHits, p.o.prefix));
}

/** Options of `nearDuplicatesOnPool`: those of nearDuplicates, and the chunk size. */
export interface PoolNearDuplicateOptions extends NearDuplicateOptions {
  /** Candidate pairs a range of the walk on a worker holds, about, 1..2^24 (default 32,768: smaller ranges cost more round trips, larger ones more memory in each worker; there are at least four ranges a worker). */
  chunkPairs?: number;
}

/**
 * Takes a sketch set, a worker pool and nearDuplicates' options; returns what nearDuplicates(set,
 * options) returns, bit for bit, with the MIN_s estimates of the candidate pairs made on the
 * pool's workers while this thread finds more pairs. Other sketch kinds, and browsers without
 * SharedArrayBuffer, are clustered on this thread as nearDuplicates does.
 */
export async function nearDuplicatesOnPool(set: ClusterColumns, pool: Pool, options: PoolNearDuplicateOptions = {}): Promise<NearDuplicates> {
  if (pool === null || typeof pool !== 'object' || typeof pool.estimateMinPairs !== 'function') throw optionError('pool', 'a Pool (createPool)', pool);
  if (options === null || typeof options !== 'object') throw optionError('options', 'an options object', options);
  const { chunkPairs: chunk, ...rest } = options;
  const chunkPairs = intOption('chunkPairs', chunk, POOL_CHUNK_PAIRS, 1, 1 << 24);
  const o = resolve(set, rest);
  const p = typeof SharedArrayBuffer === 'function' ? await planOnPool(set, o, pool) : plan(set, o);
  // rows reach the workers through shared memory (in browsers, only cross-origin isolated pages have it)
  const onPool = set.params.kind === 'min' && typeof SharedArrayBuffer === 'function';
  const c = onPool ? await candidatePairsOnPool(set, p.keys, p.docs, p.o.commonCap, p.floor, pool, chunkPairs, p.o.minHits, p.o.prefix)
    : candidatePairs(set, p.keys, p.docs, p.o.commonCap, p.floor, p.o.minHits, p.o.prefix);
  return clustered(set, p, c);
}
