// `findNearDuplicates`: the near-duplicate clusters of a crawl, as `resemble dups` prints them. The
// options are the command's flags, with its defaults (NEAR_DUPLICATE_DEFAULTS): content mode,
// pairs near the threshold checked exactly. Everything is validated before any page is read.
import { intOption, numberOption, enumOption, optionError, rejectUnknown, throwIfAborted } from '../errors.js';
import type { ReadError } from '../graph/document.js';
import type { EngineOptions } from '../scale/duckdb.js';
import type { SparkOptions } from '../scale/spark.js';
import { resolveSketchOptions, type SketchOptions } from '../sketch/options.js';
import type { SketchDocuments } from '../sketch/sketch-set.js';
import { checkEntryOptions, checkInput, readOptionsOf, takeInput, type CrawlInput, type EntryOptions, type EntryResult, type ReadSummary, type TakenInput } from '../stream/entry.js';
import type { LearnerOptions } from '../template/learner.js';
import { tooLittleContent } from '../template/evidence.js';
import { NEAR_DUPLICATE_DEFAULTS } from './defaults.js';
import type { EquivalenceLevel } from './equivalence.js';
import type { ClusterMethod, NearDuplicateOptions, RepresentativeRule } from './near-duplicates.js';
import { plainClusterRecord, type ClusterRecordOut } from './records.js';
import { nearDuplicatesOfCrawl, type CrawlNearDuplicateOptions, type CrawlNearDuplicates, type PipelineEvent } from './stream.js';

/** Options of `findNearDuplicates` and `dedup`: the flags of `resemble dups`, each with its default. */
export interface NearDuplicateRunOptions extends EntryOptions {
  /** Resemblance at which two pages join, 0..1 (default 0.5). */
  threshold?: number;
  /** Also join when either page's containment in the other reaches this, 0..1 (default: off). */
  containment?: number;
  /** Ignore shingles found in more than this many pages (default 1000). */
  commonCap?: number;
  /** Equivalent pages set aside before clustering (default 'shingle': identical, lexical and shingle copies). */
  equivalence?: EquivalenceLevel;
  /** 'pairs' (default), 'super-shingles' or 'lsh'. */
  method?: ClusterMethod;
  /** pairs: key each page by its first N non-common sketch values (default 'auto'; 0 keys every value). */
  prefix?: number | 'auto';
  /** pairs: keys a pair must share to be a candidate, 1..16 (default 2). */
  prefixHits?: number;
  /** false skips every check: candidates of super-shingles / lsh join unchecked and no pair is checked exactly (default true). */
  verify?: boolean;
  /** Pairs within this many standard errors of the threshold that would join two clusters are checked exactly, 0..10 (default 3; 0 checks none). */
  exactBand?: number;
  /** lsh: signature length (default 128). */
  k?: number;
  /** super-shingles: sketch values per super-shingle (default 2). */
  superShingle?: number;
  /** Which member represents a cluster: 'first' (default), 'earliest', 'newest', 'most-linked'. */
  representative?: RepresentativeRule;
  /** Sketch options (w, s, kind, seed…; content 'main' by default, 'page' sketches whole pages). */
  sketch?: SketchOptions;
  /** content 'main': how each site's template is learnt (trustAfter, share, heavy, maxHeldBytes). */
  templates?: LearnerOptions;
  /** Where the candidate step runs: 'memory' (default), 'duckdb' or 'spark'. */
  engine?: 'memory' | 'duckdb' | 'spark';
  /** DuckDB's (memoryLimit, tempDir) or Spark's (master, sparkConf, tempDir) options. */
  engineOptions?: EngineOptions | SparkOptions;
  /** Input bytes per sketching batch (default 4 MiB). */
  batchBytes?: number;
  /** Where pages that cannot be read back from the input are spilled for the exact checks (default: the system temp folder; false reads the input again). */
  spillDir?: string | false;
  /** Called as the run goes: reading and sketching, candidates, exact checks, clusters. */
  onProgress?: (e: PipelineEvent) => void;
}

/** The counts of `resemble dups`'s summary lines. */
export interface NearDuplicateSummary extends ReadSummary {
  /** Clusters of two or more pages. */
  clusters: number;
  /** Pages in a cluster. */
  clusteredPages: number;
  /** Pages in a cluster as identical, lexically equivalent or shingle-equivalent copies. */
  copies: number;
  /** Candidate pairs compared. */
  candidatePairs: number;
  /** Pairs joined. */
  joinedPairs: number;
  /** Pairs near the threshold that could change a cluster, and how many of them were checked exactly. */
  nearPairs: number;
  exactPairs: number;
  /** lsh: its bands and rows. */
  lsh?: { bands: number; rows: number };
  /**
   * content 'main': templates learnt, sites, template blocks, pages that waited for their site's
   * template, pages with too little content (and the word count under which a page has too
   * little), and pairs of pages cut by different templates checked whole (acrossChecked) and joined
   * so (acrossJoined; see docs/near-duplicates.md, "Pairs across templates").
   */
  content?: { templates: number; sites: number; templateBlocks: number; heldPages: number; thinPages: number; minContent: number; acrossChecked: number; acrossJoined: number };
}

/** A page with too little content after its template (content 'main'), as `--thin-out` writes it. */
export interface ThinPage {
  url: string;
  contentWords: number;
  template: number;
}

/** What `findNearDuplicates` resolves to: the cluster records `resemble dups` prints, its summary, and the pages with too little content. */
export interface FoundNearDuplicates extends EntryResult<ClusterRecordOut, NearDuplicateSummary> {
  thin: ThinPage[];
}

const KNOWN = ['workers', 'read', 'onError', 'onWarning', 'signal', 'threshold', 'containment', 'commonCap', 'equivalence', 'method', 'prefix', 'prefixHits',
  'verify', 'exactBand', 'k', 'superShingle', 'representative', 'sketch', 'templates', 'engine', 'engineOptions', 'batchBytes', 'spillDir', 'onProgress'];

/** Takes the options of a near-duplicate run and the entry's name; returns the pipeline's options, validated (throws E_OPTION before any work). */
export function resolveNearDuplicateRun(options: NearDuplicateRunOptions, where: string, known: readonly string[] = KNOWN): CrawlNearDuplicateOptions {
  checkEntryOptions(options, where);
  rejectUnknown(options, known, where);
  const d = NEAR_DUPLICATE_DEFAULTS;
  const method = enumOption('method', options.method, d.method, ['pairs', 'super-shingles', 'lsh'] as const);
  if (options.sketch !== undefined && (options.sketch === null || typeof options.sketch !== 'object')) throw optionError('sketch', 'sketch options', options.sketch);
  const sketch: SketchOptions = { content: d.content, ...(options.sketch ?? {}) };
  if (method === 'lsh') sketch.k = intOption('k', options.k ?? sketch.k, d.k, 1, 4096);
  else if (options.k !== undefined) throw optionError('k', "no value unless method 'lsh'", options.k);
  if (method === 'super-shingles') sketch.superShingle = intOption('superShingle', options.superShingle ?? sketch.superShingle, d.superShingle, 1, 64);
  else if (options.superShingle !== undefined) throw optionError('superShingle', "no value unless method 'super-shingles'", options.superShingle);
  const params = resolveSketchOptions(sketch);
  if (options.verify !== undefined && typeof options.verify !== 'boolean') throw optionError('verify', 'boolean', options.verify);
  const verify = options.verify ?? true;
  const cluster: NearDuplicateOptions = {
    threshold: numberOption('threshold', options.threshold, d.threshold, 0, 1),
    containment: options.containment === undefined ? undefined : numberOption('containment', options.containment, 0, 0, 1),
    commonCap: intOption('commonCap', options.commonCap, d.commonCap, 1, 0x7fffffff),
    equivalence: enumOption('equivalence', options.equivalence, d.equivalence, ['none', 'identical', 'lexical', 'shingle'] as const),
    method,
    representative: enumOption('representative', options.representative, d.representative, ['first', 'earliest', 'newest', 'most-linked'] as const),
  };
  if (method !== 'pairs') cluster.verify = verify;
  if (options.prefix !== undefined && options.prefix !== 'auto') {
    if (method !== 'pairs') throw optionError('prefix', "no value unless method 'pairs'", options.prefix);
    cluster.prefix = intOption('prefix', options.prefix, 0, 0, 4096);
  }
  if (options.prefixHits !== undefined) {
    if (method !== 'pairs') throw optionError('prefixHits', "no value unless method 'pairs'", options.prefixHits);
    cluster.prefixHits = intOption('prefixHits', options.prefixHits, d.prefixHits, 1, 16);
  }
  if (!verify && options.exactBand !== undefined) throw optionError('exactBand', 'no value with verify false', options.exactBand);
  const exactBand = numberOption('exactBand', options.exactBand, d.exactBand, 0, 10);
  if (options.templates !== undefined && params.content !== 'main') throw optionError('templates', "no value unless sketch content 'main'", 'options');
  const run: CrawlNearDuplicateOptions = { sketch, cluster, exactBand, exact: verify };
  if (options.workers !== undefined) run.workers = options.workers;
  if (options.engine !== undefined) run.engine = options.engine;
  if (options.engineOptions !== undefined) run.engineOptions = options.engineOptions;
  if (options.batchBytes !== undefined) run.batchBytes = options.batchBytes;
  if (options.spillDir !== undefined) run.spillDir = options.spillDir;
  if (options.templates !== undefined) run.templates = options.templates;
  return run;
}

/** A near-duplicate run done: the pipeline's result, what was reported, and the summary's counts. */
export interface NearDuplicateRun {
  found: CrawlNearDuplicates;
  summary: NearDuplicateSummary;
  thin: ThinPage[];
  taken: TakenInput;
}

/**
 * Takes a taken input, the resolved pipeline options and the entry options; runs the pipeline with
 * the entry's callbacks and returns it with its summary. The caller closes `found` and releases `taken`.
 */
export async function runNearDuplicates(taken: TakenInput, run: CrawlNearDuplicateOptions, options: NearDuplicateRunOptions): Promise<NearDuplicateRun> {
  const started = performance.now();
  let errors = 0;
  const onError = (e: ReadError) => { errors++; options.onError?.(e); };
  const signal = options.signal;
  const found = await nearDuplicatesOfCrawl(taken.inputs, {
    ...run,
    read: { ...readOptionsOf(options, onError), ...(run.keepLinks ? { links: true } : {}) },
    onProgress: (e) => { throwIfAborted(signal); options.onProgress?.(e); },
  });
  try {
    throwIfAborted(signal);
    const c = found.crawl;
    // a page that could not be sketched is reported as a broken record
    for (const e of c.sketchErrors) onError({ source: c.sources[e.index], location: c.sources[e.index], code: 'E_INPUT', message: e.message });
    const summary = nearDuplicateSummary(found, errors, (performance.now() - started) / 1000);
    return { found, summary, thin: thinPages(c.set, c.urls), taken };
  } catch (e) {
    found.close();
    throw e;
  }
}

/** Takes the sketches and URLs; returns the pages with too little content (content 'main'), as `--thin-out` lists them. */
export function thinPages(set: SketchDocuments, urls: readonly string[]): ThinPage[] {
  return tooLittleContent(set).map((d) => ({ url: urls[d], contentWords: set.tokens[d], template: Math.round(set.templateShare(d) * 1e4) / 1e4 }));
}

function nearDuplicateSummary(found: CrawlNearDuplicates, errors: number, seconds: number): NearDuplicateSummary {
  const { nd, crawl } = found;
  const s = nd.stats, c = nd.clusters;
  const summary: NearDuplicateSummary = {
    pages: crawl.pages, bytes: crawl.bytes, errors, skipped: { ...crawl.skipped }, workers: crawl.workers, seconds,
    clusters: c.count, clusteredPages: c.stats.clusteredDocuments, copies: s.identical + s.lexical + s.shingle,
    candidatePairs: s.candidatePairs, joinedPairs: c.stats.acceptedPairs, nearPairs: found.nearPairs, exactPairs: found.exactPairs,
  };
  if (s.lsh) summary.lsh = { bands: s.lsh.bands, rows: s.lsh.rows };
  const set = crawl.set;
  if (set.params.content === 'main') {
    const t = crawl.templates?.stats;
    summary.content = {
      templates: t?.trusted ?? 0, sites: t?.sites ?? 0, templateBlocks: t?.templateBlocks ?? 0, heldPages: t?.heldPages ?? 0,
      thinPages: tooLittleContent(set).length, minContent: set.params.minContent ?? 0,
      acrossChecked: found.acrossPairs.checked, acrossJoined: found.acrossPairs.joined,
    };
  }
  return summary;
}

/** Finds the near-duplicate clusters of a crawl: the records `resemble dups` prints, exact near the threshold. */
export async function findNearDuplicates(input: CrawlInput, options: NearDuplicateRunOptions = {}): Promise<FoundNearDuplicates> {
  checkInput(input, 'findNearDuplicates');
  const run = resolveNearDuplicateRun(options ?? {}, 'findNearDuplicates');
  const taken = await takeInput(input, options?.signal);
  try {
    const { found, summary, thin } = await runNearDuplicates(taken, run, options ?? {});
    try {
      const c = found.nd.clusters, set = found.crawl.set, urls = found.crawl.urls;
      const records: ClusterRecordOut[] = [];
      for (let i = 0; i < c.count; i++) records.push(plainClusterRecord(c, i, urls, set));
      return { records, summary, thin };
    } finally {
      found.close();
    }
  } finally {
    await taken.release();
  }
}
