// `buildIndex`: a crawl streamed into an index, as `resemble index build` and `index add` make
// it. The pages are read and sketched on the worker pool (content mode learns each site's
// template as the crawl streams, and pages of a site an index already knows are sketched against
// its saved template); the sweep is merged into the index's clusters, its candidate pairs found
// in memory or on DuckDB. Everything is validated before any page is read.
import { enumOption, intOption, optionError, rejectUnknown, throwIfAborted } from '../../errors.js';
import type { ReadError } from '../../graph/document.js';
import type { EngineOptions } from '../../scale/duckdb.js';
import { resolveSketchOptions, type SketchOptions } from '../../sketch/options.js';
import { checkEntry, readEntry, type CrawlInput, type EntryOptions, type EntryResult, type ReadSummary } from '../../stream/entry.js';
import { sketchCrawl, type StreamProgress } from '../../stream/sketch-crawl.js';
import { tooLittleContent } from '../../template/evidence.js';
import type { LearnerOptions } from '../../template/learner.js';
import { NEAR_DUPLICATE_DEFAULTS } from '../defaults.js';
import { thinPages, type NearDuplicateSummary, type ThinPage } from '../find.js';
import { sketchOptionsFor } from '../records.js';
import type { EquivalenceLevel } from '../equivalence.js';
import { inMemory } from './clusters.js';
import type { AddResult } from './options.js';
import { ResembleIndex } from './resemble-index.js';

/** Options of `buildIndex`: the flags of `resemble index build` (and `index add`), each with its default. */
export interface BuildIndexOptions extends EntryOptions {
  /** An index to add the pages to, as `index add` (default: a new one made from `sketch` and the policy, as `index build`). */
  index?: ResembleIndex;
  /** New index: resemblance at which two pages join, 0..1 (default 0.5). */
  threshold?: number;
  /** New index: also join when either page's containment in the other reaches this, 0..1 (default: off). */
  containment?: number;
  /** New index: ignore shingles found in more than this many pages (default 1000). */
  commonCap?: number;
  /** New index: equivalent pages short-cut (default 'shingle'). */
  equivalence?: EquivalenceLevel;
  /** New index: sketch options (w, s, kind, seed…; content 'main' by default, 'page' sketches whole pages). */
  sketch?: SketchOptions;
  /** content 'main': how the template of each site new to the index is learnt (trustAfter, share, heavy, maxHeldBytes). */
  templates?: LearnerOptions;
  /** Where the candidate pairs among the new pages are found: 'memory' (default) or 'duckdb' (the same index, for sweeps whose pairs do not fit in memory). */
  engine?: 'memory' | 'duckdb';
  /** DuckDB's options (memoryLimit, tempDir). */
  engineOptions?: EngineOptions;
  /** Input bytes per sketching batch (default 4 MiB). */
  batchBytes?: number;
  /** Called as pages are read and sketched. */
  onProgress?: (p: StreamProgress) => void;
}

/** One cluster of an index, as `resemble index clusters` prints it. */
export interface IndexClusterRecord {
  /** The cluster's number (as `findNearDuplicates` numbers clusters, and query hits name them). */
  cluster: number;
  /** Its members' keys (URLs), by DocId; null for a document without one. */
  urls: (string | null)[];
}

/** The counts of `resemble index build` / `index add`'s summary record. */
export interface IndexSummary extends ReadSummary {
  /** DocIds in the index (removed documents keep theirs). */
  documents: number;
  /** Documents not removed. */
  live: number;
  /** Clusters of two or more live documents. */
  clusters: number;
  /** What merging this crawl did: pages added, short-cut as copies, and joins. */
  added: AddResult;
  /** content 'main': as `findNearDuplicates` reports it. */
  content?: Omit<NonNullable<NearDuplicateSummary['content']>, 'acrossChecked' | 'acrossJoined'>;
}

/** What `buildIndex` resolves to: the index's cluster records (as `resemble index clusters` prints them), the summary, the index, and the pages with too little content. */
export interface BuiltIndex extends EntryResult<IndexClusterRecord, IndexSummary> {
  index: ResembleIndex;
  thin: ThinPage[];
}

const KNOWN = ['workers', 'read', 'onError', 'onWarning', 'signal', 'index', 'threshold', 'containment', 'commonCap', 'equivalence', 'sketch', 'templates',
  'engine', 'engineOptions', 'batchBytes', 'onProgress'];
const NEW_ONLY = ['threshold', 'containment', 'commonCap', 'equivalence', 'sketch'] as const;

/** Takes an index; returns its clusters as `resemble index clusters` prints them, by number. */
export function indexClusterRecords(index: ResembleIndex): IndexClusterRecord[] {
  return index.clusters().map((m, c) => ({ cluster: c, urls: Array.from(m, (d) => index.key(d) ?? null) }));
}

/** Takes an index and what merging a crawl did; returns the summary counts of the index. */
function indexCounts(index: ResembleIndex): Pick<IndexSummary, 'documents' | 'live' | 'clusters'> {
  return { documents: index.size, live: index.liveCount, clusters: index.clusters().length };
}

/**
 * Streams a crawl into an index: a new one (as `resemble index build`) or `options.index` (as
 * `index add`), its pages sketched on the worker pool and merged into the clusters. Resolves to
 * the index's cluster records, the summary and the index itself (`index.save()` writes the file
 * the command writes).
 */
export async function buildIndex(input: CrawlInput, options?: BuildIndexOptions): Promise<BuiltIndex> {
  const o = checkEntry(input, options, KNOWN, 'buildIndex');
  const adding = o.index !== undefined;
  if (adding && !(o.index instanceof ResembleIndex)) throw optionError('index', 'a ResembleIndex', o.index);
  if (adding) for (const k of NEW_ONLY) if (o[k] !== undefined) throw optionError(k, 'no value when adding to an index (its parameters are stored in it)', o[k]);
  if (o.sketch !== undefined && (o.sketch === null || typeof o.sketch !== 'object')) throw optionError('sketch', 'sketch options', o.sketch);
  const engine = enumOption('engine', o.engine, 'memory', ['memory', 'duckdb'] as const);
  if (o.engineOptions !== undefined && engine !== 'duckdb') throw optionError('engineOptions', "no value unless engine 'duckdb'", 'options');
  if (o.batchBytes !== undefined) intOption('batchBytes', o.batchBytes, 0, 1 << 16, 1 << 30);
  const sketch: SketchOptions = adding ? sketchOptionsFor(o.index!.params) : { content: NEAR_DUPLICATE_DEFAULTS.content, ...(o.sketch ?? {}) };
  const index = adding ? o.index! : new ResembleIndex(resolveSketchOptions(sketch), {
    threshold: o.threshold, containment: o.containment, commonCap: o.commonCap, equivalence: o.equivalence,
  });
  const main = index.params.content === 'main';
  if (o.templates !== undefined && !main) throw optionError('templates', "no value unless sketch content 'main'", 'options');
  if (o.templates !== undefined) rejectUnknown(o.templates, ['trustAfter', 'share', 'heavy', 'maxHeldBytes'], 'buildIndex templates');
  const started = performance.now();
  const entry = await readEntry(input, o, (r) => sketchCrawl(r.inputs, {
    sketch, ...r.workers, read: r.read, onProgress: r.onProgress,
    ...(o.batchBytes !== undefined ? { batchBytes: o.batchBytes } : {}),
    ...(main ? { templates: o.templates ?? {}, ...(adding ? { sites: index.templates } : {}) } : {}),
  }));
  const crawl = entry.read;
  let errors = entry.errors;
  const onError = (e: ReadError) => { errors++; o.onError?.(e); };
  // a page that could not be sketched is reported as a broken record
  for (const e of crawl.sketchErrors) onError({ source: crawl.sources[e.index], location: crawl.sources[e.index], code: 'E_INPUT', message: e.message });
  const meta = { keys: crawl.urls, dates: crawl.dates };
  let added: AddResult;
  if (engine === 'duckdb') {
    // the engine is built on the clustering (src/scale imports src/cluster): loaded when asked for
    const { duckDBPairFinder } = await import('../../scale/index.js');
    const find = duckDBPairFinder(o.engineOptions ?? {});
    const steps = index.sweep(crawl.set, meta);
    let r = steps.next();
    while (!r.done) r = steps.next(await find(r.value));
    added = r.value;
  } else added = inMemory(index.sweep(crawl.set, meta));
  throwIfAborted(o.signal);
  for (const [site, t] of crawl.templates?.bySite ?? []) index.templates.set(site, t);
  const set = crawl.set;
  const summary: IndexSummary = {
    pages: crawl.pages, bytes: crawl.bytes, errors, skipped: { ...crawl.skipped }, workers: crawl.workers, seconds: (performance.now() - started) / 1000,
    ...indexCounts(index), added,
  };
  if (main) {
    const t = crawl.templates?.stats;
    summary.content = {
      templates: t?.trusted ?? 0, sites: t?.sites ?? 0, templateBlocks: t?.templateBlocks ?? 0, heldPages: t?.heldPages ?? 0,
      thinPages: tooLittleContent(set).length, minContent: set.params.minContent ?? 0,
    };
  }
  return { records: indexClusterRecords(index), summary, index, thin: main ? thinPages(set, crawl.urls) : [] };
}
