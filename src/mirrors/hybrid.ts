/**
 * hybrid: the top-down rankings of Bharat et al. joined with bottom-up content evidence, the
 * combination their §1 leaves to future research. Each host brings the sketches of its pages
 * keyed by path; a pair's evidence is the mirroring rule (verdict.ts) run on the sketches: for
 * each prefix alignment of the two hosts (alignment.ts), how many compared aligned pages are
 * highly similar. Pairs come from combined and from content alone (hosts holding pages with the
 * same file name and the same min-hash, whatever their folders), so a mirror under another prefix
 * that the URL, IP and link algorithms all missed is found and compared.
 *
 * The score is a posterior probability of mirroring (naive Bayes over the compared pages of the
 * best alignment): prior odds from combined's votes, π = (votes + ½) / (rankings combined + 1),
 * then each compared page multiplies the odds by pMirror / pOther when it is highly similar and by
 * (1 − pMirror) / (1 − pOther) when it is not. With the defaults (0.95 and 0.5) a similar page
 * adds log 1.9 to the log-odds and a dissimilar one subtracts log 10, so a few differing pages
 * outweigh many similar ones, as in the paper's test. The best alignment is the one that raises
 * the odds most. Without comparable pages the score is π and combined's order is kept.
 */
import { intOption, numberOption, rejectUnknown } from '../errors.js';
import type { HostContent } from './content.js';
import type { HostSet } from './host-set.js';
import { pairKey, Ranking } from './ranking.js';
import { compareHosts, ruleParams, RULE_KEYS, type AlignmentEvidence, type MirroringResult, type MirrorRuleOptions } from './verdict.js';

/** Content evidence by host name (the mirroring rule's result on the two hosts' pages); undefined when either host has no content. */
export type ContentEvidenceFn = (a: string, b: string) => MirroringResult | undefined;

/** Options of the content evidence and of `rankHybrid`: the mirroring rule's, and the ranking's own. */
export interface HybridOptions extends MirrorRuleOptions {
  /** Pages (same file name, same min-hash) two hosts must share to become a content-only candidate (default 2). */
  minShared?: number;
  /** A (file name, min-hash) held by more hosts than this proposes no candidates: boilerplate (default 25). */
  maxKeyDf?: number;
  /** Number of rankings combined, for the prior π (default 5, §4.2.2's combination). */
  components?: number;
  /** Probability that a compared page of two mirrors is highly similar (default 0.95: dynamic parts, §4.1.1). */
  pMirror?: number;
  /** Probability that a compared page of two hosts that are not mirrors is highly similar (default 0.5). */
  pOther?: number;
}

/** The parameters of `hybridScore`. */
export interface HybridScoreParams {
  pMirror: number;
  pOther: number;
}

/** The defaults of {@link HybridScoreParams}. */
export const HYBRID_DEFAULTS: HybridScoreParams = { pMirror: 0.95, pOther: 0.5 };

const KNOWN = ['minShared', 'maxKeyDf', 'components', 'pMirror', 'pOther', ...RULE_KEYS];

function validate(options: HybridOptions) {
  rejectUnknown(options, KNOWN, 'hybrid');
  return {
    rule: ruleParams(options),
    minShared: intOption('minShared', options.minShared, 2, 1, 100000),
    maxKeyDf: intOption('maxKeyDf', options.maxKeyDf, 25, 2, 2 ** 31),
    components: intOption('components', options.components, 5, 1, 100),
    pMirror: numberOption('pMirror', options.pMirror, HYBRID_DEFAULTS.pMirror, 0.001, 0.999),
    pOther: numberOption('pOther', options.pOther, HYBRID_DEFAULTS.pOther, 0.001, 0.999),
  };
}

/** Takes per-host sketches keyed by path; returns the function giving a pair's content evidence. */
export function sketchEvidence<S>(content: HostContent<S>, options: HybridOptions = {}): ContentEvidenceFn {
  const { rule } = validate(options);
  return (x, y) => {
    const pa = content.pages(x), pb = content.pages(y);
    if (!pa || !pb || pa.paths.length === 0 || pb.paths.length === 0) return undefined;
    return compareHosts(pa.paths, pb.paths, (i, j) => content.resemblance(pa.sketches[i], pb.sketches[j]), rule, pa.bytes && pb.bytes ? { a: pa.bytes, b: pb.bytes } : undefined);
  };
}

/** The last segment of a path (its file name; '' for a folder). */
function fileName(path: string): string {
  const end = path.indexOf('?') < 0 ? path.length : path.indexOf('?');
  return path.slice(path.lastIndexOf('/', end - 1) + 1);
}

/** Takes hosts and their page keys; returns host pairs (a < b) sharing at least `minShared` pages with the same file name and key, in any folders. */
export function contentCandidates<S>(hosts: HostSet, content: HostContent<S>, options: HybridOptions = {}): Array<[number, number]> {
  const o = validate(options);
  const holders = new Map<string, number[]>();
  for (let h = 0; h < hosts.size; h++) {
    const p = content.pages(hosts.hosts[h]);
    if (!p?.keys) continue;
    for (let i = 0; i < p.paths.length; i++) {
      const k = `${p.keys[i].toString(36)} ${fileName(p.paths[i])}`;
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

/** The log-odds an alignment's compared pages add (see the file comment). */
function alignmentWeight(e: AlignmentEvidence, p: HybridScoreParams): number {
  return e.similar * Math.log(p.pMirror / p.pOther) + (e.compared - e.similar) * Math.log((1 - p.pMirror) / (1 - p.pOther));
}

/** Takes a pair's evidence; returns its best alignment for the score (the one adding the most log-odds), undefined when none compared a page. */
export function bestAlignment(e: MirroringResult | undefined, p: HybridScoreParams = HYBRID_DEFAULTS): AlignmentEvidence | undefined {
  let best: AlignmentEvidence | undefined;
  for (const a of e?.alignments ?? []) if (a.compared > 0 && (!best || alignmentWeight(a, p) > alignmentWeight(best, p))) best = a;
  return best;
}

/** The hybrid score of one pair: takes the prior π, the content evidence and the parameters; returns the posterior (see the file comment). */
export function hybridScore(prior: number, e: MirroringResult | undefined, p: HybridScoreParams = HYBRID_DEFAULTS): number {
  const best = bestAlignment(e, p);
  if (!best) return prior;
  const logit = Math.log(prior / (1 - prior)) + alignmentWeight(best, p);
  return 1 / (1 + Math.exp(-logit));
}

/** The prior π of a pair found by `votes` of `components` rankings: (votes + ½) / (components + 1), never 0 or 1. */
export function hybridPrior(votes: number, components: number): number {
  return (Math.min(votes, components) + 0.5) / (components + 1);
}

/**
 * hybrid: takes hosts, the combined ranking and per-host content (sketches, or a ready evidence
 * function); returns combined's pairs plus content-only candidates, ranked by `hybridScore`,
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
  const evidence: Array<MirroringResult | undefined> = new Array(n);
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
