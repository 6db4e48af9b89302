/**
 * The mirroring test after Bharat et al. §4.1.1, against a content source (a function from URL to
 * bytes: the local crawl, or anything that fetches), and the verification of a ranking (§4.1.2).
 * The rule (verdict.ts) needs no root page and follows prefix alignments, so it gives a verdict —
 * mirror, not mirror, or undetermined with the reason and the counts — on any pair.
 */
import { intOption, ResembleError, rejectUnknown } from '../errors.js';
import { sketchSimilarity, type ContentSource, type Similarity } from './content.js';
import type { HostSet } from './host-set.js';
import { MirrorPool } from './pool.js';
import type { Ranking } from './ranking.js';
import { AlignmentTally, bytesShares, pairVerdict, planComparisons, ruleParams, RULE_KEYS, type AlignmentEvidence, type MirroringResult, type MirrorRule, type MirrorRuleOptions, type PairOutcome } from './verdict.js';

/** Options of {@link mirroringTest}: the rule's, and how two pages are compared. */
export interface MirroringTestOptions extends MirrorRuleOptions {
  /** How two contents are compared (default: resemblance of the core's MIN_128 sketches of 8-word shingles; needs `await init()`). */
  similarity?: Similarity;
  /** Each page's size in bytes by URL (undefined where unknown): the rule then weighs a host's bytes too, not only its pages. */
  pageBytes?: (url: string) => number | undefined;
}

const KNOWN = ['similarity', 'pageBytes', ...RULE_KEYS];

function validate(options: MirroringTestOptions, where: string): { similarity: Similarity; rule: MirrorRule; pageBytes?: (url: string) => number | undefined } {
  for (const name of ['similarity', 'pageBytes'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new ResembleError('E_OPTION', `expected a function for ${name} in ${where}`, { option: name });
    }
  }
  const { similarity: _s, pageBytes: _p, ...rule } = options;
  return { similarity: options.similarity ?? sketchSimilarity(), rule: ruleParams(rule), pageBytes: options.pageBytes };
}

/** Takes two host ids and a content source; returns the verdict for the pair, with every alignment compared. */
export async function mirroringTest(hosts: HostSet, a: number, b: number, source: ContentSource, options: MirroringTestOptions = {}): Promise<MirroringResult> {
  rejectUnknown(options, KNOWN, 'mirroringTest');
  return runTest(hosts, a, b, source, validate(options, 'mirroringTest'));
}

async function runTest(hosts: HostSet, a: number, b: number, source: ContentSource, o: ReturnType<typeof validate>): Promise<MirroringResult> {
  const pa = hosts.paths[a], pb = hosts.paths[b];
  const outcome = async (i: number, j: number): Promise<PairOutcome | undefined> => {
    const ca = await source(hosts.url(a, pa[i])), cb = await source(hosts.url(b, pb[j]));
    // A path failing on both hosts says nothing (§4.1.1 ignores it).
    if (ca === null && cb === null) return undefined;
    if (ca === undefined || cb === undefined) return 'unknown';
    if (ca === null || cb === null) return 'failed';
    return o.similarity(ca, cb);
  };
  const evidence: AlignmentEvidence[] = [];
  const sizes = o.pageBytes ? { a: pa.map((p) => o.pageBytes!(hosts.url(a, p)) ?? 0), b: pb.map((p) => o.pageBytes!(hosts.url(b, p)) ?? 0) } : undefined;
  for (const plan of planComparisons(pa, pb, o.rule)) {
    const tally = new AlignmentTally(plan.alignment, o.rule);
    for (const [i, j] of plan.pairs) {
      if (tally.done) break;
      const r = await outcome(i, j);
      if (r !== undefined) tally.add(r);
    }
    evidence.push(tally.evidence({ a: pa.length, b: pb.length }, bytesShares(pa, pb, sizes, plan.alignment)));
  }
  return pairVerdict(evidence, { a: pa.length, b: pb.length, pathsA: pa, pathsB: pb }, o.rule);
}

/** Options of {@link verifyRanking}: the test's options plus how far down the ranking to go. */
export interface VerifyOptions extends MirroringTestOptions {
  /** Pairs verified from the top of the ranking (default: all). */
  top?: number;
  /** A pool carried over from earlier rankings (pooling across algorithms, §4.1.2); default a new one. */
  pool?: MirrorPool;
  /**
   * Skip pairs whose answer follows from the pool (§4.1.2's transitive inference). Default false:
   * a host holding several collections mirrors different hosts for each, so MIRROR is not
   * transitive between hosts; use it only on crawls of whole-host mirrors.
   */
  infer?: boolean;
}

/**
 * Takes a ranking and a content source; returns a verdict per verified pair (rank order) and the
 * pool of mirror and not-mirror verdicts. With `infer`, pairs whose answer follows from the pool
 * are not tested (`inferred: true`).
 */
export async function verifyRanking(ranking: Ranking, source: ContentSource, options: VerifyOptions = {}): Promise<{ results: MirroringResult[]; pool: MirrorPool }> {
  rejectUnknown(options, [...KNOWN, 'top', 'pool', 'infer'], 'verifyRanking');
  const { top: _top, pool: _pool, infer: _infer, ...rest } = options;
  const o = validate(rest, 'verifyRanking');
  const top = intOption('top', options.top, ranking.length, 0, 2 ** 31);
  const pool = options.pool ?? new MirrorPool(ranking.hosts.size);
  if (!(pool instanceof MirrorPool) || pool.hostCount !== ranking.hosts.size) throw new ResembleError('E_INPUT', `expected a pool over ${ranking.hosts.size} hosts, got ${pool instanceof MirrorPool ? pool.hostCount : typeof pool}`);
  const n = Math.min(top, ranking.length);
  const results: MirroringResult[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = ranking.a[i], y = ranking.b[i];
    const known = options.infer === true ? pool.relation(x, y) : undefined;
    if (known) {
      results[i] = { verdict: known === 'mirror' ? 'mirror' : 'not mirror', reason: 'inferred from pooled verdicts', tested: 0, similar: 0, alignments: [], inferred: true };
      continue;
    }
    const r = (results[i] = await runTest(ranking.hosts, x, y, source, o));
    if (r.verdict === 'mirror') pool.addMirror(x, y);
    else if (r.verdict === 'not mirror') pool.addMismatch(x, y);
  }
  return { results, pool };
}
