// `findCollections`: the replicated collections of a crawl (Cho, Shivakumar and Garcia-Molina), as
// `resemble collections` prints them: similar clusters grown over the link graph, or with `report`
// the replica summary, the crawler's avoid-list, a roll-up of search results, or the break points.
import { optionError, intOption, numberOption, enumOption } from '../errors.js';
import type { EngineOptions } from '../scale/duckdb.js';
import type { SparkOptions } from '../scale/spark.js';
import { checkEntry, readEntry, type CrawlInput, type EntryOptions, type EntryResult, type ReadSummary } from '../stream/entry.js';
import type { StreamProgress } from '../stream/sketch-crawl.js';
import { plain } from '../report/plain.js';
import { avoidList, type AvoidList, type KeepPolicy, type Redundancy } from './avoid.js';
import { collectionsOfGraph, type ReplicatedCollections } from './find.js';
import { clusterRecord } from './report.js';
import { rollUp, type RollUpError } from './rollup.js';
import { DEFAULT_SIMILARITY, parseSimilarity, type SimilarPages, type Similarity } from './similarity.js';
import { replicaSummary } from './summary.js';
import { readForCollections } from './stream.js';
import { ROLE_SOFT_404, type PhenomenaReport } from '../io/crawl-phenomena.js';
import { ruleLearnerOf } from './url-rules/of-crawl.js';
import type { CrawlRuleOptions } from './url-rules/of-crawl.js';
import type { UrlRules } from './url-rules/rules.js';

/** Defaults of `findCollections` (and of the flags of `resemble collections`). */
export const COLLECTION_DEFAULTS = { similarity: DEFAULT_SIMILARITY, growth: 'mixed', minSize: 10, minShare: 0.5, minCoverage: 0.9, keep: 'inlinks', report: 'clusters' } as const;

/** What `findCollections` returns records of. */
export type CollectionReport = 'clusters' | 'replicas' | 'avoid' | 'rollup' | 'break-points';

/** Options of `findCollections`: the flags of `resemble collections`, each with its default. */
export interface FindCollectionsOptions extends EntryOptions {
  /** Which pages are copies: a spec as `--similarity` takes (default the chunk test), or a parsed Similarity. */
  similarity?: string | Similarity;
  /** 'mixed' (default: partial and older copies join at the pages they share) or 'paper' (the exact condition). */
  growth?: 'mixed' | 'paper';
  /** Clusters of smaller collections are noise (default 10 pages). */
  minSize?: number;
  /** Share of a collection's pages another must hold to be its copy (default 0.5). */
  minShare?: number;
  /** What the records are: 'clusters' (default), 'replicas', 'avoid', 'rollup' (needs `results`) or 'break-points'. */
  report?: CollectionReport;
  /** avoid: which copy is kept: 'inlinks' (default), 'first', 'newest' or 'host:NAME'. */
  keep?: string;
  /** avoid and rollup: share of a collection a copy must cover (default 0.9). */
  minCoverage?: number;
  /** rollup: the search results, one URL each, best first. */
  results?: readonly string[];
  /** The candidate pairs' step: 'memory' (default), 'duckdb' or 'spark'. */
  engine?: 'memory' | 'duckdb' | 'spark';
  engineOptions?: EngineOptions | SparkOptions;
  /** Called as pages are read. */
  onProgress?: (p: StreamProgress) => void;
  /**
   * Also learn URL rewrite rules from the crawl's duplicate clusters (`true`, or the bar:
   * `{ minSupport, minPrecision, maxCluster, minResemblance }`): duplicate URLs predicted before fetching
   * (collections/url-rules). Default false. URLs that do not parse are reported to `onError`.
   */
  rules?: boolean | CrawlRuleOptions;
}

/** The counts of `resemble collections`'s summary lines. */
export interface CollectionSummary extends ReadSummary {
  /** Similar clusters, and clusters of collections under minSize pages (noise). */
  clusters: number;
  noise: number;
  minSize: number;
  trivialClusters: number;
  splitClusters: number;
  replicatedLinkGroups: number;
  virtualPages: number;
  joinedByPath: number;
  breakPoints: number;
  pagesWithoutText: number;
  droppedClusters: number;
  /** avoid: what the list skips. */
  avoid?: Redundancy & { entries: number };
  /** rules: the URL rules learnt, and the URLs that could not be read for them. */
  rules?: { rules: number; errors: number };
  /** rollup: entries, results rolled up, and results that could not be used. */
  rollup?: { entries: number; results: number; errors: RollUpError[] };
}

/** What `findCollections` resolves to: the records, the summary, and the collections themselves (for Figure 12 and the avoid-list file). */
export interface FoundCollections extends EntryResult<Record<string, unknown>, CollectionSummary> {
  collections: ReplicatedCollections & { similarity: SimilarPages };
  /** avoid: the list (its `save()` is what `--save` writes). */
  avoidList?: AvoidList;
  /** What the web crawl holds besides its pages, as `--phenomena FILE` writes it. */
  phenomena?: PhenomenaReport;
  /** rules: the URL rewrite rules learnt (`save()` is what `--rules FILE` writes; a `UrlFilter` source). */
  urlRules?: UrlRules;
}

const KNOWN = ['workers', 'read', 'onError', 'onWarning', 'signal', 'similarity', 'growth', 'minSize', 'minShare', 'report', 'keep', 'minCoverage', 'results', 'engine', 'engineOptions', 'onProgress', 'rules'];

/** Finds the replicated collections of a crawl: the records `resemble collections` prints. */
export async function findCollections(input: CrawlInput, options: FindCollectionsOptions = {}): Promise<FoundCollections> {
  options = checkEntry(input, options, KNOWN, 'findCollections');
  const d = COLLECTION_DEFAULTS;
  const similarity = typeof options.similarity === 'string' || options.similarity === undefined ? parseSimilarity(options.similarity ?? d.similarity) : options.similarity;
  const growth = enumOption('growth', options.growth, d.growth, ['mixed', 'paper'] as const);
  const minSize = intOption('minSize', options.minSize, d.minSize, 1, 2 ** 31);
  const minShare = numberOption('minShare', options.minShare, d.minShare, 0, 1);
  const minCoverage = numberOption('minCoverage', options.minCoverage, d.minCoverage, 0, 1);
  const report = enumOption('report', options.report, d.report, ['clusters', 'replicas', 'avoid', 'rollup', 'break-points'] as const);
  const keep = options.keep ?? d.keep;
  if (options.keep !== undefined && report !== 'avoid') throw optionError('keep', "no value unless report 'avoid'", options.keep);
  if (typeof keep !== 'string' || (!['inlinks', 'first', 'newest'].includes(keep) && !(keep.startsWith('host:') && keep.length > 5))) throw optionError('keep', 'inlinks, first, newest or host:NAME', keep);
  if (report === 'rollup' && (!Array.isArray(options.results) || options.results.some((r) => typeof r !== 'string'))) throw optionError('results', 'an array of result URLs (with report rollup)', options.results);
  if (report !== 'rollup' && options.results !== undefined) throw optionError('results', "no value unless report 'rollup'", 'a value');
  const engine = enumOption('engine', options.engine, 'memory', ['memory', 'duckdb', 'spark'] as const);
  const ruleOptions = options.rules === undefined || options.rules === false ? undefined : options.rules === true ? {} : options.rules;
  if (ruleOptions !== undefined && (ruleOptions === null || typeof ruleOptions !== 'object')) throw optionError('rules', 'true, false or { minSupport, minPrecision, maxCluster }', options.rules);
  const started = performance.now();
  const { read, errors } = await readEntry(input, options, (r) => readForCollections(r.inputs, similarity, {
    ...r.workers, engine, ...(options.engineOptions ? { engineOptions: options.engineOptions } : {}), read: r.read, onProgress: r.onProgress,
  }));
  const { crawl, graph } = read;
  const found = { ...collectionsOfGraph(graph, read.similar, { growth, minSize, minShare }), similarity: read.similar };
  const kept = found.clusters.filter((c) => !c.noise);
  const records: unknown[] = [];
  let list: AvoidList | undefined;
  const st = found.stats;
  const summary: CollectionSummary = {
    pages: crawl.pages, bytes: crawl.bytes, errors, skipped: { ...crawl.skipped }, workers: crawl.workers, seconds: 0,
    clusters: kept.length, noise: found.clusters.length - kept.length, minSize, trivialClusters: found.trivial.count, splitClusters: st.splitClusters,
    replicatedLinkGroups: st.replicatedEdges, virtualPages: st.virtualPages, joinedByPath: st.joinedByPath, breakPoints: found.breakPoints.pages.length,
    pagesWithoutText: found.similarity.emptyPages, droppedClusters: st.dropped ?? 0,
  };
  if (report === 'replicas') {
    for (const r of replicaSummary(found, graph, found.similarity)) records.push(r);
  } else if (report === 'avoid') {
    list = avoidList(found, graph, {
      pageBytes: crawl.sizes, keep: keep as KeepPolicy, minCoverage,
      pageDates: keep === 'newest' ? Array.from(crawl.dates, (t) => (Number.isNaN(t) ? undefined : new Date(t).toISOString())) : undefined,
      resemblance: found.similarity.resemblance,
    });
    for (const e of list.entries) records.push(e);
    summary.avoid = { ...list.redundancy, entries: list.entries.length };
  } else if (report === 'rollup') {
    const { entries, errors: rollErrors } = rollUp(options.results as string[], found, graph, { includeNoise: true, minCoverage });
    for (const e of entries) records.push(e);
    summary.rollup = { entries: entries.length, results: entries.reduce((n, e) => n + 1 + e.collection.length + e.replicas.reduce((m, r) => m + r.results.length, 0), 0), errors: rollErrors };
  } else if (report === 'break-points') {
    const side = (k: number) => {
      const c = found.clusters[k];
      return { cardinality: c.cardinality, size: c.size, root: graph.urls[c.roots[0]] };
    };
    const bp = found.breakPoints;
    for (let i = 0; i < bp.pages.length; i++) records.push({ url: graph.urls[bp.pages[i]], host: graph.hosts[graph.hostOf[bp.pages[i]]], from: side(bp.from[i]), to: side(bp.to[i]) });
  } else {
    for (const c of kept) records.push(clusterRecord(c, graph));
  }
  let urlRules: UrlRules | undefined;
  if (ruleOptions !== undefined) {
    const soft = read.phenomena ? Uint8Array.from(read.phenomena.roles, (r) => (r === ROLE_SOFT_404 ? 1 : 0)) : undefined;
    const learner = ruleLearnerOf(crawl.urls, read.similarAll, soft, ruleOptions);
    urlRules = learner.learn();
    for (const e of learner.errors) options.onError?.({ source: e.url, location: e.url, code: e.code, message: e.message });
    summary.rules = { rules: urlRules.rules.length, errors: learner.errors.length };
  }
  summary.errors = errors;
  summary.seconds = (performance.now() - started) / 1000;
  return { records: records.map((r) => plain(r) as Record<string, unknown>), summary, collections: found, ...(list ? { avoidList: list } : {}), ...(urlRules ? { urlRules } : {}), ...(read.phenomena ? { phenomena: read.phenomena } : {}) };
}
