/**
 * The mirroring test of Bharat et al. §4.1.1 against a content source (a function from URL to
 * bytes: the local crawl, or anything that fetches), and the pooled verification of a ranking
 * (§4.1.2) that skips pairs whose answer follows from earlier verdicts.
 */
import { intOption, numberOption, rejectUnknown, ResembleError } from '../errors.js';
import type { HostSet } from './host-set.js';
import { MirrorPool } from './pool.js';
import { DEFAULT_SEED, Random } from './random.js';
import type { Ranking } from './ranking.js';
import { sketchSimilarity, type ContentSource, type Similarity } from './content.js';

export type { Content, ContentSource, Similarity } from './content.js';

/**
 * mirror: `required` sampled paths were highly similar (or every testable one, on a smaller host);
 * mismatch: root pages, or a path present on both hosts, not highly similar;
 * partial: a path present on one host and failing on the other (the paper's tentative mismatch);
 * failure: a root page could not be had, or no path could be tested (removed from evaluation).
 * A path unknown on either host (not in a local crawl) is skipped, as a path failing on both is.
 */
export type Verdict = 'mirror' | 'mismatch' | 'partial' | 'failure';

/** The outcome of one test, with the evidence that decided it. */
export interface MirroringResult {
  verdict: Verdict;
  /** Why, in words. */
  reason: string;
  /** Sampled paths compared on both hosts (the root not counted). */
  tested: number;
  /** Of those, highly similar. */
  similar: number;
  /** Sampled paths skipped because one host's page was unknown to the source. */
  unknown?: number;
  /** The path that decided a mismatch or partial verdict. */
  path?: string;
  /** Resemblance at the deciding path (root included). */
  resemblance?: number;
  /** True when the verdict followed from the pool without a test. */
  inferred?: boolean;
}

/** Options of {@link mirroringTest}. */
export interface MirroringTestOptions {
  /** How two contents are compared (default: resemblance of the core's MIN_128 sketches of 8-word shingles; needs `await init()`). */
  similarity?: Similarity;
  /** Paths sampled from each host at equal intervals of its sorted path list (default 15). */
  samplePaths?: number;
  /** Highly similar paths that make a mirror (default 10). */
  required?: number;
  /** Resemblance below which two pages are not highly similar (default 0.5: §4.1.1 found 0.75 too conservative). */
  threshold?: number;
  /** Seed of the path permutation (default {@link DEFAULT_SEED}); each pair draws its own stream. */
  seed?: number;
}

const KNOWN = ['similarity', 'samplePaths', 'required', 'threshold', 'seed'];

function validate(options: MirroringTestOptions, where: string) {
  if (options.similarity !== undefined && typeof options.similarity !== 'function') {
    throw new ResembleError('E_OPTION', `expected a function (a, b) => resemblance for similarity in ${where}`, { option: 'similarity' });
  }
  return {
    similarity: options.similarity ?? sketchSimilarity(),
    samplePaths: intOption('samplePaths', options.samplePaths, 15, 1, 100000),
    required: intOption('required', options.required, 10, 1, 100000),
    threshold: numberOption('threshold', options.threshold, 0.5, 0, 1),
    seed: intOption('seed', options.seed, DEFAULT_SEED, 0, 2 ** 32 - 1),
  };
}

/** Takes a sorted list (of paths); returns k items at equal intervals, all of them when there are k or fewer (§4.1.1). */
export function samplePaths<T>(items: readonly T[], k: number): T[] {
  const n = items.length;
  if (n <= k) return [...items];
  return Array.from({ length: k }, (_, i) => items[Math.floor((i * n) / k)]);
}

/** Takes two host ids and a content source; returns the mirroring test's verdict for the pair. */
export async function mirroringTest(hosts: HostSet, a: number, b: number, source: ContentSource, options: MirroringTestOptions = {}): Promise<MirroringResult> {
  rejectUnknown(options, KNOWN, 'mirroringTest');
  return runTest(hosts, a, b, source, validate(options, 'mirroringTest'));
}

async function runTest(hosts: HostSet, a: number, b: number, source: ContentSource, o: ReturnType<typeof validate>): Promise<MirroringResult> {
  const [ha, hb] = [hosts.hosts[a], hosts.hosts[b]];
  const rootA = await source(hosts.url(a, '')), rootB = await source(hosts.url(b, ''));
  if (rootA == null || rootB == null) {
    const which = rootA == null ? ha : hb;
    return { verdict: 'failure', reason: `root page of ${which} ${(rootA == null ? rootA : rootB) === null ? 'failed' : 'unknown'}`, tested: 0, similar: 0, path: '' };
  }
  const rootR = o.similarity(rootA, rootB);
  if (rootR < o.threshold) return { verdict: 'mismatch', reason: 'root pages differ', tested: 0, similar: 0, path: '', resemblance: rootR };

  // Each pair draws its own permutation, so a verdict never depends on which pairs were tested before.
  const rng = new Random(o.seed, `mirroring-test:${ha}|${hb}`);
  const listA = rng.shuffle(samplePaths(hosts.paths[a], o.samplePaths));
  const listB = rng.shuffle(samplePaths(hosts.paths[b], o.samplePaths));
  const done = new Set<string>(['']);
  let tested = 0, similar = 0, unknown = 0;
  for (let i = 0; i < Math.max(listA.length, listB.length) * 2; i++) {
    const list = i % 2 === 0 ? listA : listB;
    const path = list[i >> 1];
    if (path === undefined || done.has(path)) continue;
    done.add(path);
    const ca = await source(hosts.url(a, path)), cb = await source(hosts.url(b, path));
    if (ca == null && cb == null) continue;
    if (ca === undefined || cb === undefined) {
      unknown++;
      continue;
    }
    if (ca === null || cb === null) {
      return { verdict: 'partial', reason: `path fails on ${ca === null ? ha : hb} only`, tested, similar, unknown, path };
    }
    tested++;
    const r = o.similarity(ca, cb);
    if (r < o.threshold) return { verdict: 'mismatch', reason: 'a common path differs', tested, similar, unknown, path, resemblance: r };
    similar++;
    if (similar >= o.required) return { verdict: 'mirror', reason: `${similar} sampled paths highly similar`, tested, similar, unknown };
  }
  if (similar > 0) return { verdict: 'mirror', reason: `all ${similar} testable sampled paths highly similar (fewer than ${o.required} could be tested)`, tested, similar, unknown };
  return { verdict: 'failure', reason: 'no sampled path could be tested', tested, similar, unknown };
}

/** Options of {@link verifyRanking}: the test's options plus how far down the ranking to go. */
export interface VerifyOptions extends MirroringTestOptions {
  /** Pairs verified from the top of the ranking (default: all). */
  top?: number;
  /** A pool carried over from earlier rankings (pooling across algorithms, §4.1.2); default a new one. */
  pool?: MirrorPool;
  /** Test partial verdicts again after the pass, as §4.1.1 does with tentative mismatches (default true). */
  retestPartial?: boolean;
}

/**
 * Takes a ranking and a content source; returns a verdict per verified pair (rank order) and the
 * pool. Pairs whose answer follows from the pool are not tested (`inferred: true`). A partial
 * verdict is tentative: it stays out of the pool until retested after the pass; if it persists
 * it is final and recorded as a mismatch.
 */
export async function verifyRanking(ranking: Ranking, source: ContentSource, options: VerifyOptions = {}): Promise<{ results: MirroringResult[]; pool: MirrorPool }> {
  rejectUnknown(options, [...KNOWN, 'top', 'pool', 'retestPartial'], 'verifyRanking');
  const o = validate(options, 'verifyRanking');
  const top = intOption('top', options.top, ranking.length, 0, 2 ** 31);
  const pool = options.pool ?? new MirrorPool(ranking.hosts.size);
  if (pool.hostCount !== ranking.hosts.size) throw new ResembleError('E_INPUT', `expected a pool over ${ranking.hosts.size} hosts, got ${pool.hostCount}`);
  const n = Math.min(top, ranking.length);
  const results: MirroringResult[] = new Array(n);
  const tentative: number[] = [];
  // A partial verdict recorded here is final: it joins the mismatch relation.
  const record = (i: number, r: MirroringResult) => {
    results[i] = r;
    if (r.verdict === 'mirror') pool.addMirror(ranking.a[i], ranking.b[i]);
    else if (r.verdict === 'mismatch' || r.verdict === 'partial') pool.addMismatch(ranking.a[i], ranking.b[i]);
  };
  const inferred = (i: number): boolean => {
    const known = pool.relation(ranking.a[i], ranking.b[i]);
    if (known) results[i] = { verdict: known, reason: 'inferred from pooled verdicts', tested: 0, similar: 0, inferred: true };
    return known !== undefined;
  };
  for (let i = 0; i < n; i++) {
    if (inferred(i)) continue;
    const r = await runTest(ranking.hosts, ranking.a[i], ranking.b[i], source, o);
    if (r.verdict === 'partial' && options.retestPartial !== false) {
      results[i] = r;
      tentative.push(i);
    } else record(i, r);
  }
  for (const i of tentative) {
    if (!inferred(i)) record(i, await runTest(ranking.hosts, ranking.a[i], ranking.b[i], source, o));
  }
  return { results, pool };
}
