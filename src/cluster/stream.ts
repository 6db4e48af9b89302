// The near-duplicate pipeline end to end: stream and sketch the crawl, find and estimate candidate
// pairs (in memory, or on DuckDB beyond memory), then check exactly the pairs whose estimate
// lies within a few standard errors of the policy and would change a cluster, by reading just
// those pages again. Stages report progress; nothing holds page bytes past its batch. The pool
// that sketched the crawl also estimates the candidate pairs and shingles the pages checked.
import { tmpdir } from 'node:os';
import { intOption, numberOption, optionError, rejectUnknown } from '../errors.js';
import { nearDuplicates, nearDuplicatesOnPool, type NearDuplicateOptions, type NearDuplicates } from './near-duplicates.js';
import type { ReadOptions } from '../io/options.js';
import type { ReadError } from '../graph/document.js';
import type { EngineOptions } from '../scale/duckdb.js';
import type { SparkOptions, SparkSession } from '../scale/spark.js';
import type { SketchOptions } from '../sketch/options.js';
import type { LearnerOptions } from '../template/learner.js';
import { exactPairs } from './exact-pairs.js';
import { exactAcrossTemplates, mostlyTemplate } from './cross-template.js';
import type { Inputs } from '../io/pages.js';
import { NEAR_DUPLICATE_DEFAULTS } from './defaults.js';
import { createPool, type Pool } from '../stream/pool-node.js';
import { sketchCrawl, workerCount, type CrawlSketch, type StreamProgress } from '../stream/sketch-crawl.js';
import { SketchStore, SpilledSketches } from '../stream/sketch-store.js';
import { resolveSketchOptions } from '../sketch/options.js';
import type { SketchSet } from '../sketch/sketch-set.js';

/**
 * The engines beyond memory (DuckDB, Spark, sketches spilled to disk), loaded when a run asks for
 * one: they are built on this folder's clustering (src/scale imports src/cluster), so the
 * clustering names them only here, at run time (docs/architecture.md, "Arrows run downward").
 */
const scaleEngines = () => import('../scale/index.js');

/** Pipeline stages, in order. */
export type Stage = 'sketching' | 'candidates' | 'exact' | 'clusters';

/** One progress report of the pipeline. */
export type PipelineEvent =
  | { stage: 'sketching'; progress: StreamProgress }
  | { stage: 'candidates' | 'clusters'; state: 'start' | 'done'; count?: number; detail?: string }
  /** A step of the DuckDB engine's candidate step started or ended (detail: load, cap, pairs, read...; count: its rows when done). */
  | { stage: 'candidates'; state: 'step'; detail: string; done: boolean; count?: number; seconds: number }
  | { stage: 'exact'; done: number; total: number };

/** Options of `nearDuplicatesOfCrawl`. */
export interface CrawlNearDuplicateOptions {
  sketch?: SketchOptions;
  /** Clustering options (threshold, containment, method, commonCap, ...; `dates` / `inlinks` are filled in from the crawl for those rules). */
  cluster?: NearDuplicateOptions;
  /** Threads that sketch, estimate the candidate pairs (MIN_s) and shingle the pages checked exactly (default: available cores; 1 runs inline). */
  workers?: number;
  /** Input bytes per sketching batch, 1 KiB..256 MiB (default 4 MiB): bounds what is held while a batch waits for a worker. A crawl of one batch is done inline. */
  batchBytes?: number;
  read?: ReadOptions;
  /** 'memory' (default), 'duckdb' (candidate step in SQL under a memory limit) or 'spark' (candidate step as Spark SQL; method pairs). */
  engine?: 'memory' | 'duckdb' | 'spark';
  /** DuckDB's (memoryLimit, tempDir…), or Spark's (master, sparkConf, tempDir…). */
  engineOptions?: EngineOptions | SparkOptions;
  /** Standard errors around the policy within which pairs are checked exactly (default 3); 0 or `exact: false` checks none. */
  exactBand?: number;
  /** Check pairs near the policy exactly by reading their pages again (default true). */
  exact?: boolean;
  /**
   * Where the pages are spilled for the exact checks (a temporary file, removed at the end): pages
   * of inputs that can be read again at a known place (plain JSONL and WARC files, a `.warc.gz` of
   * one gzip member per record, folders) are read back from there one by one and not spilled; the
   * others (standard input, gzip streams, other kinds) are written to the spill file and read back
   * from it. Default: the engine's temp dir, else the system's. `false` reads the input again instead
   * (no disk used; costs a second parse of the input).
   */
  spillDir?: string | false;
  /** content 'main': how each site's template is learnt as the crawl streams (see sketchCrawl). */
  templates?: LearnerOptions;
  /** Keep out-links (for most-linked representatives or a web graph). Default: when the rule is most-linked. */
  keepLinks?: boolean;
  onProgress?: (e: PipelineEvent) => void;
}

/**
 * What `nearDuplicatesOfCrawl` returns. With the DuckDB engine (method pairs) the sketch values stay in
 * a temporary file, `crawl.set` holds the per-document columns only, and `nd` reads rows back from
 * the file: `close()` removes it (a no-op with the memory engine).
 */
export interface CrawlNearDuplicates {
  crawl: Omit<CrawlSketch, 'set'> & { set: SketchSet | SpilledSketches };
  nd: NearDuplicates;
  /** Removes the temporary files the result still reads (the spilled sketches). */
  close(): void;
  /** Seconds per stage. */
  seconds: Record<Stage, number>;
  /** Pairs near the threshold that could change a cluster (before any check), pairs of them checked exactly, pages read again for those. */
  nearPairs: number;
  exactPairs: number;
  exactPages: number;
  /** content 'main': pairs of pages cut against different templates checked by the rule across templates (cross-template.ts), and those it joined. */
  acrossPairs: { checked: number; joined: number };
}

const KNOWN = ['sketch', 'cluster', 'workers', 'batchBytes', 'read', 'engine', 'engineOptions', 'exactBand', 'exact', 'spillDir', 'keepLinks', 'templates', 'onProgress'] as const;

/** Takes DocIds' out-link URLs and their page URLs; returns in-link counts per DocId (links to pages of the crawl, once per page). */
export function inlinkCounts(urls: readonly string[], links: readonly (readonly string[] | undefined)[]): Float64Array {
  const id = new Map<string, number>();
  for (let i = 0; i < urls.length; i++) if (!id.has(urls[i])) id.set(urls[i], i);
  const counts = new Float64Array(urls.length);
  for (let i = 0; i < urls.length; i++) {
    const seen = new Set<number>();
    for (const l of links[i] ?? []) {
      const t = id.get(l);
      if (t !== undefined && t !== i && !seen.has(t)) { seen.add(t); counts[t]++; }
    }
  }
  return counts;
}

/** Takes input path(s) and options; returns the sketched crawl and its near-duplicate clusters, exact at the threshold. */
export async function nearDuplicatesOfCrawl(input: Inputs, options: CrawlNearDuplicateOptions = {}): Promise<CrawlNearDuplicates> {
  rejectUnknown(options, KNOWN, 'nearDuplicatesOfCrawl');
  const engine = options.engine ?? 'memory';
  if (engine !== 'memory' && engine !== 'duckdb' && engine !== 'spark') throw optionError('engine', 'memory | duckdb | spark', engine);
  if (engine === 'spark' && (options.cluster?.method ?? 'pairs') !== 'pairs') throw optionError('cluster.method', "pairs with engine 'spark'", options.cluster?.method);
  const exactBand = numberOption('exactBand', options.exactBand, NEAR_DUPLICATE_DEFAULTS.exactBand, 0, 10);
  if (options.exact !== undefined && typeof options.exact !== 'boolean') throw optionError('exact', 'boolean', options.exact);
  const cluster = { ...(options.cluster ?? {}) };
  const rule = cluster.representative ?? 'first';
  const keepLinks = options.keepLinks ?? rule === 'most-linked';
  const emit = options.onProgress ?? (() => {});
  const seconds: Record<Stage, number> = { sketching: 0, candidates: 0, exact: 0, clusters: 0 };
  let t = performance.now();
  const lap = (stage: Stage) => { const now = performance.now(); seconds[stage] += (now - t) / 1000; t = now; };

  const exact = options.exact !== false && exactBand > 0;
  if (options.spillDir !== undefined && options.spillDir !== false && (typeof options.spillDir !== 'string' || options.spillDir === '')) throw optionError('spillDir', 'a folder path or false', options.spillDir);
  const spillDir = !exact || options.spillDir === false ? undefined : options.spillDir ?? options.engineOptions?.tempDir ?? tmpdir();
  // The DuckDB engine with method pairs keeps no sketch in memory: rows go to a file as batches are
  // sketched (and through the common-value filter when candidates are keyed by prefix).
  const store = engine !== 'memory' && (cluster.method ?? 'pairs') === 'pairs'
    ? new SketchStore(options.engineOptions?.tempDir ?? tmpdir(), resolveSketchOptions({ ...(options.sketch ?? {}) })) : undefined;
  // Spark's driver starts while the crawl is sketched (the candidate step takes the same session)
  const spark = engine === 'spark' ? scaleEngines().then((m) => m.openSpark(options.engineOptions as SparkOptions)) : undefined;
  spark?.catch(() => undefined);
  // one pool for the sketches and the exact checks (its workers start with the second batch)
  const workers = workerCount(options.workers);
  const pool = workers > 1 ? createPool({ workers }) : undefined;
  let crawl: CrawlNearDuplicates['crawl'] | undefined;
  let spilled: SpilledSketches | undefined;
  try {
    try {
      const sketched = await sketchCrawl(input, {
        sketch: options.sketch, ...(pool ? { pool } : { workers }), read: { ...(options.read ?? {}), links: keepLinks }, keepLinks, spillDir, records: spillDir !== undefined,
        ...(options.batchBytes !== undefined ? { batchBytes: options.batchBytes } : {}),
        // rows the pool's workers read in place when they estimate the candidate pairs (where memory
        // can be shared: a page not cross-origin isolated has no SharedArrayBuffer, and sends them)
        ...(pool && !store && engine === 'memory' && typeof SharedArrayBuffer === 'function' ? { sharedRows: true } : {}),
        ...(options.templates !== undefined ? { templates: options.templates } : {}),
        ...(store ? {
          retain: false,
          onRows: (set: SketchSet, ids: Uint32Array) => store.add(set, ids),
        } : {}),
        onProgress: (progress) => emit({ stage: 'sketching', progress }),
      });
      if (store) {
        spilled = await store.finish(sketched.pages, sketched.sketchErrors);
        // the set replaced in place: a spread would read the compact columns' getters and make every URL and source a string
        const withSpilled: CrawlNearDuplicates['crawl'] = sketched;
        withSpilled.set = spilled;
        crawl = withSpilled;
      } else crawl = sketched;
    } catch (e) {
      store?.remove();
      throw e;
    }
    try {
      if (spark) await spark;
      const found = await clusterCrawl(input, crawl, options, { cluster, rule, exact, exactBand, emit, seconds, lap, pool: crawl.workers > 1 ? pool : undefined });
      return { ...found, close: () => spilled?.close() };
    } catch (e) {
      spilled?.close();
      throw e;
    }
  } finally {
    crawl?.spill?.remove();
    await pool?.close();
    if (spark) await spark.then((s: SparkSession) => s.release(), () => undefined);
  }
}

interface Flow {
  cluster: NearDuplicateOptions;
  rule: string;
  exact: boolean;
  exactBand: number;
  emit: (e: PipelineEvent) => void;
  seconds: Record<Stage, number>;
  lap: (stage: Stage) => void;
  /** The pool the crawl was sketched on, for the candidate estimates and the exact checks (undefined: inline). */
  pool?: Pool;
}

async function clusterCrawl(input: Inputs, crawl: CrawlNearDuplicates['crawl'], options: CrawlNearDuplicateOptions, flow: Flow): Promise<Omit<CrawlNearDuplicates, 'close'>> {
  const { cluster, rule, exact, exactBand, emit, seconds, lap } = flow;
  lap('sketching');
  if (rule === 'earliest' || rule === 'newest') cluster.dates = crawl.dates;
  if (rule === 'most-linked') cluster.inlinks = inlinkCounts(crawl.urls, crawl.links ?? []);

  emit({ stage: 'candidates', state: 'start' });
  const set = crawl.set;
  const nd = set instanceof SpilledSketches
    ? await (await scaleEngines()).clusterSpilled(set, {
      cluster, pool: flow.pool,
      ...(options.engine === 'spark' ? { spark: options.engineOptions as SparkOptions } : { engine: options.engineOptions as EngineOptions }),
      onProgress: (p) => { if (p.state !== 'running') emit({ stage: 'candidates', state: 'step', detail: p.stage, done: p.state === 'done', count: p.rows, seconds: p.seconds }); },
    })
    : (options.engine ?? 'memory') === 'duckdb'
      ? await (await scaleEngines()).clusterWithDuckDB(set, { ...cluster, ...(options.engineOptions as EngineOptions ?? {}) })
      : flow.pool ? await nearDuplicatesOnPool(set, flow.pool, cluster) : nearDuplicates(set, cluster);
  emit({ stage: 'candidates', state: 'done', count: nd.stats.candidatePairs });
  lap('candidates');

  let checked = 0, pages = 0, near = 0;
  // an input file that changed since it was read is reported once, by the first round that reads it back
  const warned = new Set<string>(), onWarning = options.read?.onWarning;
  const read = onWarning ? { ...options.read, onWarning: (w: ReadError) => { if (!warned.has(w.source)) { warned.add(w.source); onWarning(w); } } } : options.read;
  if (exact) {
    // Rounds of checks (see NearDuplicates.settleNear): most pairs near the threshold join pages
    // that an earlier check already joined, and need no page read.
    ({ near, checked } = await nd.settleNear(exactBand, async (idx) => {
      // Pairs whose sketch rows hold every shingle are settled from the rows; the others from their pages.
      const values = { resemblance: new Float64Array(idx.length), containmentAB: new Float64Array(idx.length), containmentBA: new Float64Array(idx.length) };
      const fromPages: number[] = [];
      idx.forEach((i, k) => {
        const v = nd.exactFromRows(i);
        if (v) [values.resemblance[k], values.containmentAB[k], values.containmentBA[k]] = v;
        else fromPages.push(k);
      });
      if (fromPages.length > 0) {
        const before = pages;
        emit({ stage: 'exact', done: before, total: before });
        const a = Uint32Array.from(fromPages, (k) => nd.pairs.a[idx[k]]), b = Uint32Array.from(fromPages, (k) => nd.pairs.b[idx[k]]);
        const exact = await exactPairs(input, a, b, {
          sketch: options.sketch, read, spill: crawl.spill, records: crawl.records, fingerprints: crawl.set.rawFp, templates: crawl.templates, pool: flow.pool,
          onProgress: (done, total) => emit({ stage: 'exact', done: before + done, total: before + total }),
        });
        fromPages.forEach((k, j) => {
          values.resemblance[k] = exact.resemblance[j];
          values.containmentAB[k] = exact.containmentAB[j];
          values.containmentBA[k] = exact.containmentBA[j];
        });
        pages += exact.pages;
      }
      return values;
    }));
  }
  // content mode: pairs of a page mostly template and a page cut by another template, checked whole (cross-template.ts)
  let across = { checked: 0, joined: 0 };
  const templates = crawl.templates;
  if (exact && templates) {
    const threshold = cluster.threshold ?? NEAR_DUPLICATE_DEFAULTS.threshold;
    const mostly = mostlyTemplate(threshold, crawl.set, templates);
    const idx = nd.acrossTemplates(exactBand, (d) => templates.tables.docTable[d], mostly);
    if (idx.length > 0) {
      const a = Uint32Array.from(idx, (i) => nd.pairs.a[i]), b = Uint32Array.from(idx, (i) => nd.pairs.b[i]);
      const before = pages;
      const got = await exactAcrossTemplates(input, a, b, templates, threshold, mostly, {
        sketch: options.sketch, read, spill: crawl.spill, records: crawl.records, fingerprints: crawl.set.rawFp, pool: flow.pool,
        onProgress: (done, total) => emit({ stage: 'exact', done: before + done, total: before + total }),
      });
      nd.settle(idx, got);
      pages += got.pages;
      across = { checked: idx.length, joined: got.joined };
    }
  }
  lap('exact');
  emit({ stage: 'clusters', state: 'done', count: nd.clusters.count });
  lap('clusters');
  return { crawl, nd, seconds, nearPairs: near, exactPairs: checked, exactPages: pages, acrossPairs: across };
}
