/**
 * Term vector matching (Bharat et al. §3.2, after Salton and Buckley): per-host sparse vectors
 * of weighted terms in CSR form, the paper's document-frequency limits, and cosine similarity
 * of host pairs found through inverted lists of terms, so that only hosts sharing a term are
 * ever compared (never all host pairs).
 */
import { Random } from '../random.js';

/** Per-host sparse term vectors (CSR): host h holds termIds/weights[offsets[h]..offsets[h+1]), term ids ascending. */
export interface TermVectors {
  hostCount: number;
  /** Term id → term text. */
  terms: string[];
  /** Document frequency of each term: the number of hosts that selected it, before any restriction. */
  df: Uint32Array;
  offsets: Uint32Array;
  termIds: Uint32Array;
  weights: Float64Array;
  /** Euclidean norm of each host's vector. */
  norms: Float64Array;
  /** The largest df among terms that were not rejected (the paper's maxdf). */
  maxdf: number;
  /** Terms found in more than one host, and how many of those were rejected or restricted (the counts §3.2 reports). */
  stats: { sharedTerms: number; rejected: number; restricted: number };
}

/** How the paper limits document frequency: reject above `maxDf`, keep in `restrictDf` random hosts above that. */
export interface DfLimits {
  /** Terms in more than this many hosts are dropped from every vector (paper: 100). */
  maxDf: number;
  /** Terms in more than this many hosts stay in the vectors of only this many hosts, chosen at random (paper: 25). */
  restrictDf: number;
  seed: number;
}

/** A term's weight from its document frequency, its text, and maxdf. */
export type TermWeight = (df: number, term: string, maxdf: number) => number;

/**
 * Builds term vectors. Takes, per host, its terms (repeats count as term frequency), an optional
 * per-host number of terms to keep (the most frequent; ties by term text), the df limits and the
 * weight; returns the vectors. `label` names the random stream of the restriction.
 */
export function buildTermVectors(
  hostCount: number,
  termsOf: (host: number) => Iterable<string>,
  weight: TermWeight,
  limits: DfLimits | undefined,
  label: string,
  keep?: (host: number) => number,
): TermVectors {
  const ids = new Map<string, number>();
  const terms: string[] = [];
  const selected: Uint32Array[] = [];
  for (let h = 0; h < hostCount; h++) {
    const tf = new Map<number, number>();
    for (const t of termsOf(h)) {
      let id = ids.get(t);
      if (id === undefined) {
        id = terms.length;
        ids.set(t, id);
        terms.push(t);
      }
      tf.set(id, (tf.get(id) ?? 0) + 1);
    }
    let chosen = [...tf.keys()];
    const k = keep ? keep(h) : chosen.length;
    if (chosen.length > k) {
      chosen.sort((x, y) => tf.get(y)! - tf.get(x)! || (terms[x] < terms[y] ? -1 : terms[x] > terms[y] ? 1 : 0));
      chosen = chosen.slice(0, k);
    }
    selected.push(Uint32Array.from(chosen).sort());
  }
  const termCount = terms.length;
  const df = new Uint32Array(termCount);
  for (const s of selected) for (const t of s) df[t]++;

  // Inverted lists of the selection, host ids ascending.
  const pOff = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) pOff[t + 1] = pOff[t] + df[t];
  const fill = pOff.slice(0, termCount);
  const post = new Uint32Array(pOff[termCount]);
  for (let h = 0; h < hostCount; h++) for (const t of selected[h]) post[fill[t]++] = h;

  const maxDf = limits?.maxDf ?? Infinity;
  const restrictDf = limits?.restrictDf ?? Infinity;
  let maxdf = 0, shared = 0, rejected = 0, restricted = 0;
  for (let t = 0; t < termCount; t++) {
    if (df[t] > 1) shared++;
    if (df[t] > maxDf) rejected++;
    else if (df[t] > maxdf) maxdf = df[t];
  }
  // Membership after the limits: rejected terms leave every vector; restricted ones stay in a seeded random subset.
  const member = new Uint8Array(post.length).fill(1);
  const rng = Random.stream(limits?.seed ?? 0, `df-restriction:${label}`);
  for (let t = 0; t < termCount; t++) {
    const n = df[t];
    if (n > maxDf) member.fill(0, pOff[t], pOff[t + 1]);
    else if (n > restrictDf) {
      restricted++;
      member.fill(0, pOff[t], pOff[t + 1]);
      for (const i of rng.sampleIndices(n, restrictDf)) member[pOff[t] + i] = 1;
    }
  }
  const w = new Float64Array(termCount);
  for (let t = 0; t < termCount; t++) if (df[t] <= maxDf) w[t] = weight(df[t], terms[t], maxdf);

  const count = new Uint32Array(hostCount);
  for (let i = 0; i < post.length; i++) if (member[i]) count[post[i]]++;
  const offsets = new Uint32Array(hostCount + 1);
  for (let h = 0; h < hostCount; h++) offsets[h + 1] = offsets[h] + count[h];
  const termIds = new Uint32Array(offsets[hostCount]);
  const weights = new Float64Array(offsets[hostCount]);
  const at = offsets.slice(0, hostCount);
  // Walking terms in ascending id keeps each host's row sorted by term id.
  for (let t = 0; t < termCount; t++) {
    for (let i = pOff[t]; i < pOff[t + 1]; i++) {
      if (!member[i]) continue;
      const h = post[i];
      termIds[at[h]] = t;
      weights[at[h]++] = w[t];
    }
  }
  const norms = new Float64Array(hostCount);
  for (let h = 0; h < hostCount; h++) {
    let s = 0;
    for (let i = offsets[h]; i < offsets[h + 1]; i++) s += weights[i] * weights[i];
    norms[h] = Math.sqrt(s);
  }
  return { hostCount, terms, df, offsets, termIds, weights, norms, maxdf, stats: { sharedTerms: shared, rejected, restricted } };
}

/** Host pairs sharing at least one weighted term: a < b, their cosine similarity and the number of shared terms. */
export interface CosinePairs {
  a: Uint32Array;
  b: Uint32Array;
  cosine: Float64Array;
  shared: Uint32Array;
}

/** Options of `cosinePairs`. */
export interface CosineOptions {
  /**
   * Bounds the pairs a popular term generates: a term held by more hosts than `cap(df)` proposes
   * pairs among `cap(df)` of them, chosen at random; the scores stay exact (computed from the
   * full vectors). Default: every holder (the URL algorithms already restrict their vectors).
   */
  candidateCap?: (df: number) => number;
  seed?: number;
  label?: string;
}

/** Takes term vectors; returns every host pair sharing a weighted term with its cosine similarity. */
export function cosinePairs(v: TermVectors, options: CosineOptions = {}): CosinePairs {
  const H = v.hostCount;
  const termCount = v.terms.length;
  // Inverted lists over the final vectors.
  const len = new Uint32Array(termCount);
  for (let i = 0; i < v.termIds.length; i++) if (v.weights[i] !== 0) len[v.termIds[i]]++;
  const pOff = new Uint32Array(termCount + 1);
  for (let t = 0; t < termCount; t++) pOff[t + 1] = pOff[t] + len[t];
  const fill = pOff.slice(0, termCount);
  const post = new Uint32Array(pOff[termCount]);
  for (let h = 0; h < H; h++) {
    for (let i = v.offsets[h]; i < v.offsets[h + 1]; i++) if (v.weights[i] !== 0) post[fill[v.termIds[i]]++] = h;
  }
  const w = new Float64Array(termCount);
  for (let i = 0; i < v.termIds.length; i++) w[v.termIds[i]] = v.weights[i];

  const index = new Map<number, number>();
  let a = new Uint32Array(1024), b = new Uint32Array(1024), dot = new Float64Array(1024), shared = new Uint32Array(1024);
  let n = 0;
  let sampled = false;
  const rng = Random.stream(options.seed ?? 0, `candidates:${options.label ?? ''}`);
  for (let t = 0; t < termCount; t++) {
    let holders = post.subarray(pOff[t], pOff[t + 1]);
    if (holders.length < 2) continue;
    const cap = options.candidateCap ? options.candidateCap(holders.length) : holders.length;
    if (cap < holders.length) {
      sampled = true;
      const pick = rng.sampleIndices(holders.length, Math.max(2, cap));
      holders = Uint32Array.from(pick, (i) => holders[i]);
    }
    const wt2 = w[t] * w[t];
    for (let i = 0; i < holders.length; i++) {
      for (let j = i + 1; j < holders.length; j++) {
        const key = holders[i] * H + holders[j];
        let k = index.get(key);
        if (k === undefined) {
          if (n === a.length) {
            a = grow(a); b = grow(b); shared = grow(shared);
            const d = new Float64Array(dot.length * 2); d.set(dot); dot = d;
          }
          k = n++;
          index.set(key, k);
          a[k] = holders[i];
          b[k] = holders[j];
        }
        dot[k] += wt2;
        shared[k]++;
      }
    }
  }
  const cosine = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    if (sampled) {
      const m = mergeDot(v, a[k], b[k]);
      dot[k] = m.dot;
      shared[k] = m.shared;
    }
    const den = v.norms[a[k]] * v.norms[b[k]];
    cosine[k] = den > 0 ? Math.min(1, dot[k] / den) : 0;
  }
  return { a: a.slice(0, n), b: b.slice(0, n), cosine, shared: shared.slice(0, n) };
}

/** Takes two hosts; returns the dot product of their vectors and the number of shared weighted terms (sorted merge). */
export function mergeDot(v: TermVectors, x: number, y: number): { dot: number; shared: number } {
  let i = v.offsets[x], j = v.offsets[y];
  const ei = v.offsets[x + 1], ej = v.offsets[y + 1];
  let dot = 0, shared = 0;
  while (i < ei && j < ej) {
    const ti = v.termIds[i], tj = v.termIds[j];
    if (ti < tj) i++;
    else if (tj < ti) j++;
    else {
      const p = v.weights[i] * v.weights[j];
      if (p !== 0) {
        dot += p;
        shared++;
      }
      i++;
      j++;
    }
  }
  return { dot, shared };
}

function grow(x: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> {
  const y = new Uint32Array(x.length * 2);
  y.set(x);
  return y;
}
