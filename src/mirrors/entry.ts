// `findMirrors`: ranked pairs of mirrored hosts from a crawl, as `resemble mirrors` prints them.
// The defaults are the command's: the hybrid ranking, each pair confirmed by the mirroring test
// against the crawl's own pages (sketched while it streams); an input of URLs only is ranked by
// combined, unverified. Evaluation against a truth list, or against the pooled verdicts of every
// ranking, gives the paper's curves.
import { optionError, ResembleError, intOption, numberOption, enumOption, throwIfAborted } from '../errors.js';
import type { ReadError } from '../graph/document.js';
import { checkEntry, readEntry, type CrawlInput, type EntryOptions, type EntryResult, type ReadSummary } from '../stream/entry.js';
import type { StreamProgress } from '../stream/sketch-crawl.js';
import { plain } from '../report/plain.js';
import { mirrorInputFromDocuments } from './crawl-input.js';
import { hostContentFromSketches, sketchedContent, type Similarity as ContentSimilarity, type ContentSource } from './content.js';
import { evaluateRankings, poolJudge, truthJudge, type Curve, type Judge } from './evaluate.js';
import { DEFAULT_MIN_URLS, HostSet, type HostsFile } from './host-set.js';
import { LinkTable } from './links.js';
import { MirrorPool } from './pool.js';
import { rankAll } from './find.js';
import { ALGORITHMS, type AlgorithmName, type Ranking } from './ranking.js';
import { aliasRecords, mirrorRecord, type AliasRecord, type MirrorRecord } from './record.js';
import { DEFAULT_SEED } from './seed.js';
import { readForMirrors } from './stream.js';
import type { PhenomenaReport } from '../io/crawl-phenomena.js';
import { verifyRanking } from './mirroring-test.js';
import { RULE_DEFAULTS, type MirroringResult, type MirrorRuleOptions } from './verdict.js';

/** Rankings that read the crawl's links. */
const NEEDS_LINKS: readonly AlgorithmName[] = ['conn', 'hconn1', 'hconn2', 'combined', 'hybrid'];

/** Defaults of `findMirrors` (and of the flags of `resemble mirrors`). */
export const MIRROR_DEFAULTS = { algorithm: 'hybrid', top: 1000, minUrls: DEFAULT_MIN_URLS, seed: DEFAULT_SEED, ...RULE_DEFAULTS } as const;

/** Options of `findMirrors`: the flags of `resemble mirrors`, each with its default. */
export interface FindMirrorsOptions extends EntryOptions, MirrorRuleOptions {
  /** The ranking: hybrid (default; combined for an input of URLs only), combined, iprank, urlrank, conn, hconn1, hconn2… */
  algorithm?: AlgorithmName;
  /** Ranked pairs returned (and verified), best first (default 1000; 0 returns every one). */
  top?: number;
  /** Confirm each pair by the mirroring test against the crawl's pages (default true; false when the input holds URLs only). */
  verify?: boolean;
  /** With the mirroring test: infer a verdict for undetermined pairs from their hosts' other pairs (default false). */
  infer?: boolean;
  /** Server IPs per host (parseHostsFile's), added to those the input records. */
  hosts?: HostsFile;
  /** Hosts with fewer URLs are left out (default 10). */
  minUrls?: number;
  /** Seed of the rankings' sampling (default the paper's). */
  seed?: number;
  /** Count the URLs the pages link to as the hosts' URLs too (default false). */
  linkUrls?: boolean;
  /** Known mirror pairs [hostA, hostB]: each record's `mirror` is then the truth, and `evaluate` scores against them. */
  truth?: Array<[string, string]>;
  /** Rank with every algorithm and score each against `truth` (else against the pooled mirroring-test verdicts): `evaluation`. */
  evaluate?: boolean;
  /** Called as pages are read (and sketched). */
  onProgress?: (p: StreamProgress) => void;
}

/** The counts of `resemble mirrors`'s summary line. */
export interface MirrorSummary extends ReadSummary {
  /** The ranking the records come from. */
  algorithm: AlgorithmName;
  /** Hosts ranked, and hosts left out for having fewer than minUrls URLs. */
  hosts: number;
  droppedHosts: number;
  minUrls: number;
  /** Pairs the ranking holds, and records returned. */
  rankedPairs: number;
  written: number;
  /** With the mirroring test: its verdicts over the records. */
  verdicts?: { mirror: number; notMirror: number; undetermined: number };
}

/** With `evaluate`: every ranking's curve against the truth (or the pooled verdicts). */
export interface MirrorEvaluation {
  against: 'truth' | 'pooled';
  /** Mirror pairs found by the union of all rankings. */
  total: number;
  curves: Curve[];
  /** Hosts of the truth that are not among the ranked hosts. */
  unknownHosts: string[];
}

/** What `findMirrors` resolves to: the records `resemble mirrors` prints, its summary, and with `evaluate` the curves. */
export interface FoundMirrors extends EntryResult<MirrorRecord | AliasRecord, MirrorSummary> {
  evaluation?: MirrorEvaluation;
  /** What the web crawl holds besides its pages (URL variants, soft-404s, aliases, redirects), as `--phenomena FILE` writes it. */
  phenomena?: PhenomenaReport;
}

const KNOWN = ['workers', 'read', 'onError', 'onWarning', 'signal', 'algorithm', 'top', 'verify', 'infer', 'hosts', 'minUrls', 'seed', 'linkUrls', 'truth', 'evaluate', 'onProgress',
  'threshold', 'agreement', 'samplePaths', 'minPaths', 'minShare', 'minPages', 'confidence'];

/** Ranks the mirrored host pairs of a crawl and confirms them by the mirroring test: the records `resemble mirrors` prints. */
export async function findMirrors(input: CrawlInput, options: FindMirrorsOptions = {}): Promise<FoundMirrors> {
  options = checkEntry(input, options, KNOWN, 'findMirrors');
  const d = MIRROR_DEFAULTS;
  const algorithmGiven = options.algorithm !== undefined;
  let algorithm = enumOption('algorithm', options.algorithm, d.algorithm, ALGORITHMS);
  const topOption = intOption('top', options.top, d.top, 0, 2 ** 31);
  const minUrls = intOption('minUrls', options.minUrls, d.minUrls, 1, 2 ** 31);
  const seed = intOption('seed', options.seed, d.seed, 0, 2 ** 32 - 1);
  for (const name of ['verify', 'infer', 'linkUrls', 'evaluate'] as const) if (options[name] !== undefined && typeof options[name] !== 'boolean') throw optionError(name, 'boolean', options[name]);
  let verify = options.verify ?? true;
  const rule: MirrorRuleOptions = {
    threshold: numberOption('threshold', options.threshold, d.threshold, 0, 1),
    agreement: numberOption('agreement', options.agreement, d.agreement, 0.01, 1),
    samplePaths: intOption('samplePaths', options.samplePaths, d.samplePaths, 1, 100000),
    minPaths: intOption('minPaths', options.minPaths, d.minPaths, 1, 100000),
    minShare: numberOption('minShare', options.minShare, d.minShare, 0, 1),
    minPages: intOption('minPages', options.minPages, d.minPages, 1, 2 ** 31),
    confidence: numberOption('confidence', options.confidence, d.confidence, 0.5, 0.9999),
  };
  const infer = options.infer ?? false;
  if (infer && !verify) throw optionError('infer', 'to come with the mirroring test (not verify false)', true);
  if (options.truth !== undefined && (!Array.isArray(options.truth) || options.truth.some((p) => !Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || typeof p[1] !== 'string'))) throw optionError('truth', 'an array of [hostA, hostB] pairs', 'a value');
  if (options.hosts !== undefined && !(options.hosts?.ips instanceof Map)) throw optionError('hosts', 'a hosts file (parseHostsFile)', options.hosts);
  const evaluate = options.evaluate ?? false;
  let wanted: AlgorithmName[] = evaluate ? [...ALGORITHMS] : [algorithm];
  const links = wanted.some((a) => NEEDS_LINKS.includes(a));
  const needsSketches = verify || wanted.includes('hybrid') || (evaluate && options.truth === undefined);
  const started = performance.now();
  const entry = await readEntry(input, options, (r) => readForMirrors(r.inputs, {
    links, sketch: needsSketches ? {} : false, ...r.workers, read: r.read, onProgress: r.onProgress,
  }));
  const read = entry.read;
  let errors = entry.errors;
  const onError = (e: ReadError) => { errors++; options.onError?.(e); };
  const { stream, set } = read;
  const summary: MirrorSummary = {
    pages: stream.urls.length, bytes: stream.bytes, errors, skipped: { ...stream.skipped }, workers: stream.workers, seconds: 0,
    algorithm, hosts: 0, droppedHosts: 0, minUrls, rankedPairs: 0, written: 0,
  };
  const phenomena = read.phenomena ? { phenomena: read.phenomena } : {};
  if (summary.pages === 0) return { records: [], summary: { ...summary, errors, seconds: (performance.now() - started) / 1000 }, ...phenomena };
  const mirrorInput = mirrorInputFromDocuments(read.pages, { linkUrls: options.linkUrls ?? false });
  const ips = new Map(mirrorInput.ips);
  for (const [h, list] of options.hosts?.ips ?? []) ips.set(h, [...new Set([...(ips.get(h) ?? []), ...list])]);
  const hosts = HostSet.fromUrls(mirrorInput.urls, { minUrls, ips, locations: mirrorInput.locations, source: 'input' });
  for (const e of [...mirrorInput.errors, ...hosts.errors]) onError(e);
  if (hosts.size < 2) {
    throw new ResembleError('E_INPUT', `expected at least two hosts with ${minUrls} or more URLs, got ${hosts.size} (${hosts.droppedHosts} smaller hosts left out; see --min-urls)`);
  }
  const hasContent = stream.sizes.some((n) => n > 0);
  if (!hasContent && !algorithmGiven) {
    algorithm = 'combined';
    if (!evaluate) wanted = [algorithm];
  }
  if (!hasContent && options.verify !== true) verify = false;
  if (infer && !verify) throw optionError('infer', 'to come with the mirroring test, which needs page content', true);
  if (algorithm === 'hybrid' && !hasContent) throw new ResembleError('E_INPUT', 'hybrid needs page content; the input holds URLs only (use another --algorithm)');
  const content = hasContent && wanted.includes('hybrid') ? hostContentFromSketches(hosts, stream.urls, stream.utf8Sizes, set!) : undefined;
  const table = LinkTable.fromDocuments(hosts, read.pages);
  const rankings = rankAll(hosts, table, content, { seed, hybrid: rule }, wanted.filter((a) => a !== 'hybrid' || content));
  const ranking = rankings[algorithm]!;
  const top = topOption === 0 ? ranking.length : Math.min(topOption, ranking.length);

  // the mirroring test compares the pages' sketches made while the crawl streamed
  const { source, similarity, pageBytes } = set ? sketchedContent(stream.urls, stream.utf8Sizes, set) : { source: (() => undefined) as ContentSource, similarity: undefined, pageBytes: undefined };
  const pool = new MirrorPool(hosts.size);
  let results: MirroringResult[] = [];
  if (verify) {
    if (!hasContent) throw new ResembleError('E_INPUT', '--verify needs page content; the input holds URLs only (verify: true)');
    results = (await verifyRanking(ranking, source, { ...rule, similarity, pageBytes, top, pool, infer })).results;
  }
  throwIfAborted(options.signal);
  const evaluation = evaluate ? await evaluateAll(hosts, Object.values(rankings), options.truth, { ranking, results, pool, source, similarity, depth: topOption === 0 ? undefined : topOption, rule, infer, hasContent }) : undefined;
  const judgeTruth = options.truth ? truthJudge(hosts, options.truth).judge : undefined;
  const records: (MirrorRecord | AliasRecord)[] = [];
  for (let i = 0; i < top; i++) records.push(plain(mirrorRecord(hosts, ranking, i, verify ? results[i] : undefined, judgeTruth ? judgeTruth(ranking.a[i], ranking.b[i]) === 1 : undefined)) as MirrorRecord);
  // hosts the crawl shows to be one (redirects, the same pages under two names), after the ranked pairs
  for (const r of aliasRecords(read.phenomena?.hostAliases ?? [])) records.push(plain(r) as AliasRecord);
  Object.assign(summary, { algorithm, hosts: hosts.size, droppedHosts: hosts.droppedHosts, rankedPairs: ranking.length, written: top, errors, seconds: (performance.now() - started) / 1000 });
  if (verify) {
    const count = (v: string) => results.filter((r) => r.verdict === v).length;
    summary.verdicts = { mirror: count('mirror'), notMirror: count('not mirror'), undetermined: count('undetermined') };
  }
  return { records, summary, ...(evaluation ? { evaluation } : {}), ...phenomena };
}

interface EvaluateContext {
  ranking: Ranking;
  results: MirroringResult[];
  pool: MirrorPool;
  source: ContentSource;
  similarity: ContentSimilarity | undefined;
  /** Ranks evaluated (and verified, without a truth list) per ranking; undefined for all. */
  depth: number | undefined;
  rule: MirrorRuleOptions;
  infer: boolean;
  hasContent: boolean;
}

/** Scores every ranking against the truth, or else against the mirroring test pooled over their top N (§4.1.2). */
async function evaluateAll(hosts: HostSet, rankings: Ranking[], truth: Array<[string, string]> | undefined, e: EvaluateContext): Promise<MirrorEvaluation> {
  let judge: Judge;
  let unknownHosts: string[] = [];
  if (truth) {
    const t = truthJudge(hosts, truth);
    unknownHosts = t.unknownHosts;
    judge = t.judge;
  } else {
    if (!e.hasContent) throw new ResembleError('E_INPUT', 'an evaluation without a truth list pools mirroring-test verdicts, which needs page content; give the truth');
    const verified = [{ ranking: e.ranking, results: e.results }];
    for (const r of rankings) {
      if (r === e.ranking && e.results.length > 0) continue;
      verified.push({ ranking: r, results: (await verifyRanking(r, e.source, { ...e.rule, similarity: e.similarity, top: e.depth, pool: e.pool, infer: e.infer })).results });
    }
    judge = poolJudge(e.pool, verified);
  }
  const { curves, total } = evaluateRankings(rankings, judge, { maxRank: e.depth });
  return { against: truth ? 'truth' : 'pooled', total, curves, unknownHosts };
}
