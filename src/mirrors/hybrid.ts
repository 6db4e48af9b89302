/**
 * hybrid: the top-down rankings of Bharat et al. joined with bottom-up content evidence, the
 * combination their §1 leaves to future research. Each host brings the sketches of its pages
 * keyed by path; a pair's evidence is how many of its compared common paths hold highly similar
 * pages. Pairs come from combined and from content alone (hosts sharing pages with the same path
 * and the same min-hash), so a mirror the URL, IP and link algorithms all missed can be found.
 *
 * The score is a posterior probability of mirroring (naive Bayes over the compared paths):
 * prior odds from combined's votes, π = (votes + ½) / (rankings combined + 1), then each compared
 * common path multiplies the odds by pMirror / pOther when its pages are highly similar and by
 * (1 − pMirror) / (1 − pOther) when they are not. With the defaults (0.95 and 0.5) a similar page
 * adds log 1.9 to the log-odds and a dissimilar one subtracts log 10: like the paper's mirroring
 * test, which stops at the first mismatch, one differing common page outweighs several similar
 * ones. The root pages are weighed apart with pRoot = 0.999 in place of pMirror: the paper's test
 * calls a pair a mismatch on differing roots alone (§4.1.1), so differing roots subtract log 500,
 * which a handful of similar pages cannot make up. Without content the score is π and combined's
 * order is kept.
 */
import { intOption, numberOption, rejectUnknown } from '../errors.js';
import type { HostContent } from './content.js';
import type { HostSet } from './host-set.js';
import { samplePaths } from './mirroring-test.js';
import { pairKey, Ranking } from './ranking.js';

/** Content evidence of one host pair. */
export interface ContentEvidence {
  /** Resemblance of the two root pages, null when either host has no root page. */
  root: number | null;
  /** Common paths other than the root whose pages were compared. */
  compared: number;
  /** Of those, highly similar (resemblance ≥ threshold). */
  similar: number;
  /** Mean resemblance of the compared pages (0 when none). */
  meanResemblance: number;
  /** Paths with content on each host, and on both. */
  pagesA: number;
  pagesB: number;
  commonPaths: number;
}

/** Content evidence by host name; undefined when either host has no content. */
export type ContentEvidenceFn = (a: string, b: string) => ContentEvidence | undefined;

export type { HostContent, HostPages } from './content.js';

/** Options of the content evidence and of {@link rankHybrid}. */
export interface HybridOptions {
  /** Common paths compared per pair, at equal intervals of their sorted list (default 25). */
  samplePaths?: number;
  /** Resemblance at or above which two pages are highly similar (default 0.5, the mirroring test's). */
  threshold?: number;
  /** Pages (same path, same key) two hosts must share to become a content-only candidate (default 2). */
  minShared?: number;
  /** A (path, key) held by more hosts than this proposes no candidates: boilerplate (default 25). */
  maxKeyDf?: number;
  /** Number of rankings combined, for the prior π (default 5, §4.2.2's combination). */
  components?: number;
  /** Probability that a common path of two mirrors holds highly similar pages (default 0.95: dynamic parts, §4.1.1). */
  pMirror?: number;
  /** Probability that a common path of two hosts that are not mirrors holds highly similar pages (default 0.5). */
  pOther?: number;
  /** Probability that two mirrors' root pages are highly similar (default 0.999: a root mismatch is nearly decisive, §4.1.1). */
  pRoot?: number;
}

/** The parameters of {@link hybridScore}. */
export interface HybridScoreParams {
  threshold: number;
  pMirror: number;
  pOther: number;
  pRoot: number;
}

/** The defaults of {@link HybridScoreParams}. */
export const HYBRID_DEFAULTS: HybridScoreParams = { threshold: 0.5, pMirror: 0.95, pOther: 0.5, pRoot: 0.999 };

const KNOWN = ['samplePaths', 'threshold', 'minShared', 'maxKeyDf', 'components', 'pMirror', 'pOther', 'pRoot'];

function validate(options: HybridOptions) {
  rejectUnknown(options, KNOWN, 'hybrid');
  return {
    samplePaths: intOption('samplePaths', options.samplePaths, 25, 1, 100000),
    threshold: numberOption('threshold', options.threshold, 0.5, 0, 1),
    minShared: intOption('minShared', options.minShared, 2, 1, 100000),
    maxKeyDf: intOption('maxKeyDf', options.maxKeyDf, 25, 2, 2 ** 31),
    components: intOption('components', options.components, 5, 1, 100),
    pMirror: numberOption('pMirror', options.pMirror, HYBRID_DEFAULTS.pMirror, 0.001, 0.999),
    pOther: numberOption('pOther', options.pOther, HYBRID_DEFAULTS.pOther, 0.001, 0.999),
    pRoot: numberOption('pRoot', options.pRoot, HYBRID_DEFAULTS.pRoot, 0.001, 0.9999),
  };
}

/** Takes per-host sketches keyed by path; returns the function giving a pair's content evidence. */
export function sketchEvidence<S>(content: HostContent<S>, options: HybridOptions = {}): ContentEvidenceFn {
  const o = validate(options);
  return (x, y) => {
    const pa = content.pages(x), pb = content.pages(y);
    if (!pa || !pb || pa.paths.length === 0 || pb.paths.length === 0) return undefined;
    const ia = new Map(pa.paths.map((p, i) => [p, i]));
    const common: Array<[number, number]> = [];
    let root: number | null = null;
    pb.paths.forEach((p, j) => {
      const i = ia.get(p);
      if (i === undefined) return;
      if (p === '') root = content.resemblance(pa.sketches[i], pb.sketches[j]);
      else common.push([i, j]);
    });
    const chosen = samplePaths(common, o.samplePaths);
    let similar = 0, sum = 0;
    for (const [i, j] of chosen) {
      const r = content.resemblance(pa.sketches[i], pb.sketches[j]);
      sum += r;
      if (r >= o.threshold) similar++;
    }
    return {
      root,
      compared: chosen.length,
      similar,
      meanResemblance: chosen.length ? sum / chosen.length : 0,
      pagesA: pa.paths.length,
      pagesB: pb.paths.length,
      commonPaths: common.length + (root === null ? 0 : 1),
    };
  };
}

/** Takes hosts and their page keys; returns host pairs (a < b) sharing at least `minShared` pages with the same path and key. */
export function contentCandidates<S>(hosts: HostSet, content: HostContent<S>, options: HybridOptions = {}): Array<[number, number]> {
  const o = validate(options);
  const holders = new Map<string, number[]>();
  for (let h = 0; h < hosts.size; h++) {
    const p = content.pages(hosts.hosts[h]);
    if (!p?.keys) continue;
    for (let i = 0; i < p.paths.length; i++) {
      const k = `${p.keys[i].toString(36)} ${p.paths[i]}`;
      const list = holders.get(k);
      if (!list) holders.set(k, [h]);
      else if (list[list.length - 1] !== h) list.push(h);
    }
  }
  const count = new Map<number, number>();
  for (const list of holders.values()) {
    if (list.length < 2 || list.length > o.maxKeyDf) continue;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const key = pairKey(list[i], list[j], hosts.size);
        count.set(key, (count.get(key) ?? 0) + 1);
      }
    }
  }
  const out: Array<[number, number]> = [];
  for (const [key, c] of count) if (c >= o.minShared) out.push([Math.floor(key / hosts.size), key % hosts.size]);
  return out.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/** The hybrid score of one pair: takes the prior π, the content evidence and the parameters; returns the posterior (see the file comment). */
export function hybridScore(prior: number, e: ContentEvidence | undefined, p: HybridScoreParams = HYBRID_DEFAULTS): number {
  if (!e || (e.compared === 0 && e.root === null)) return prior;
  let logit = Math.log(prior / (1 - prior));
  logit += e.similar * Math.log(p.pMirror / p.pOther) + (e.compared - e.similar) * Math.log((1 - p.pMirror) / (1 - p.pOther));
  if (e.root !== null) logit += e.root >= p.threshold ? Math.log(p.pRoot / p.pOther) : Math.log((1 - p.pRoot) / (1 - p.pOther));
  return 1 / (1 + Math.exp(-logit));
}

/** The prior π of a pair found by `votes` of `components` rankings: (votes + ½) / (components + 1), never 0 or 1. */
export function hybridPrior(votes: number, components: number): number {
  return (Math.min(votes, components) + 0.5) / (components + 1);
}

/**
 * hybrid: takes hosts, the combined ranking and per-host content (sketches, or a ready evidence
 * function); returns combined's pairs plus content-only candidates, ranked by {@link hybridScore},
 * ties by votes, then by combined's order, then by host ids.
 */
export function rankHybrid<S>(hosts: HostSet, combined: Ranking, content: HostContent<S> | ContentEvidenceFn, options: HybridOptions = {}): Ranking {
  const o = validate(options);
  const evidenceOf = typeof content === 'function' ? content : sketchEvidence(content, options);
  const a: number[] = [], b: number[] = [], votes: number[] = [], order: number[] = [];
  const fromContent: boolean[] = [];
  const index = new Map<number, number>();
  for (let i = 0; i < combined.length; i++) {
    index.set(combined.key(i), a.length);
    a.push(combined.a[i]);
    b.push(combined.b[i]);
    votes.push(combined.score[i]);
    order.push(i);
    fromContent.push(false);
  }
  if (typeof content !== 'function') {
    for (const [x, y] of contentCandidates(hosts, content, options)) {
      const k = index.get(pairKey(x, y, hosts.size));
      if (k !== undefined) {
        fromContent[k] = true;
        continue;
      }
      a.push(x);
      b.push(y);
      votes.push(0);
      order.push(combined.length);
      fromContent.push(true);
    }
  }
  const n = a.length;
  const evidence: Array<ContentEvidence | undefined> = new Array(n);
  const score = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    evidence[k] = evidenceOf(hosts.hosts[a[k]], hosts.hosts[b[k]]);
    score[k] = hybridScore(hybridPrior(votes[k], o.components), evidence[k], o);
  }
  const rank = Uint32Array.from({ length: n }, (_, i) => i).sort(
    (x, y) => score[y] - score[x] || votes[y] - votes[x] || order[x] - order[y] || a[x] - a[y] || b[x] - b[y],
  );
  return new Ranking(
    'hybrid',
    hosts,
    Uint32Array.from(rank, (i) => a[i]),
    Uint32Array.from(rank, (i) => b[i]),
    Float64Array.from(rank, (i) => score[i]),
    (r) => {
      const k = rank[r];
      const e = evidence[k];
      return {
        prior: hybridPrior(votes[k], o.components),
        ...(order[k] < combined.length ? { combined: combined.evidence(order[k]) } : {}),
        content: e ?? null,
      };
    },
    (r) => {
      const k = rank[r];
      const found = order[k] < combined.length ? combined.algorithms(order[k]) : [];
      return fromContent[k] ? [...found, 'content'] : found;
    },
  );
}
