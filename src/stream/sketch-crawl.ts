// Read → batch → sketch, streaming: documents come from the readers one by one, are grouped into
// batches of a few MiB, and each batch is sketched (on the worker pool, or inline with one worker)
// while reading goes on. A page's bytes are let go once its batch is handed over; what later
// stages need is kept as small columns (URL, source, date, size, links when asked for). Batches
// are put back in input order, so DocIds are read positions and the sketches are bit-identical
// for any worker count.
//
// Content mode ('main'): each page goes through a TemplateLearner keyed by its site (a manual root:
// host and first directory, split further where manuals sit side by side; template/sites.ts) first. A site's pages wait until its template is trusted (its first `trustAfter`
// distinct pages, held up to a byte bound), then they and all later pages of the site are sketched
// against that one frozen table; a site that never gets that many pages takes the template of the
// site it is a folder of, else its host's, at the end. Once the pool runs, the templates are learnt on it: a site's pages then wait,
// unsketched, until its template is back, while reading goes on. The rows are put back in DocId
// order at the end.
import { availableParallelism } from 'node:os';
import { ResembleError, intOption, optionError, rejectUnknown } from '../errors.js';
import { utf8Bytes, type Document, type ReadError } from '../graph/document.js';
import { readCrawl, type SkipCounts } from '../io/crawl.js';
import type { Inputs } from '../io/pages.js';
import { SKIP_REASONS, type ReadOptions } from '../io/options.js';
import { resolveSketchOptions, type SketchOptions, type SketchParams } from '../sketch/options.js';
import type { SketchError, SketchSet } from '../sketch/sketch-set.js';
import { sketchMany } from '../sketch/sketch.js';
import { createPool, type Pool } from './pool-node.js';
import { assembleSketchSet } from './pool.js';
import { TemplateLearner, type LearnerOptions, type LearntTemplate, type ReleasedPage } from '../template/learner.js';
import { hostOfUrl } from '../graph/url.js';
import { SiteRouter, deepestKnownSite } from '../template/sites.js';
import { pageIdentity } from '../template/stub.js';
import type { DocInput } from '../sketch/input.js';
import { ContentBatches, siteOfUrl, type CrawlTemplates, type TableRef } from '../template/crawl-templates.js';

export { siteOfUrl };
import { scatterSketchSet } from './reorder.js';
import { PageArena, SLAB_BYTES } from './page-arena.js';
import { RecordColumns, type CrawlRecords } from './records.js';
import { SourceColumn } from './source-column.js';
import { UrlColumn } from './url-column.js';
import { openPageSpill, type PageSpillWriter, type Spill } from './spill.js';

/** What the pipeline has got through so far (for progress displays). */
export interface StreamProgress {
  /** Documents read (and queued for sketching). */
  read: number;
  /** Documents sketched. */
  sketched: number;
  /** Input bytes read from disk. */
  bytes: number;
}

/** Options of `sketchCrawl`; every one has a default. */
export interface SketchCrawlOptions {
  /** Sketch options (default: the library's); false reads without sketching (for stages that only need `onBatch` and the columns). */
  sketch?: SketchOptions | false;
  /** Sketching threads: 1 sketches on the calling thread, N > 1 on a pool of N workers. Default: available cores. */
  workers?: number;
  /** A pool to sketch on, which the caller closes (its size is the worker count); default: one of `workers` workers, closed at the end. */
  pool?: Pool;
  /** Input bytes per batch (default 4 MiB): bounds what is held while a batch waits for a worker. */
  batchBytes?: number;
  /** Bytes of the slabs JSONL pages are read into and reused from (default 8 MiB; 64 KiB to 1 GiB). */
  pageSlabBytes?: number;
  /** Reader options (links, scheme, kind, allStatuses, onError, onSkip, onBytes). `links` defaults to false here. */
  read?: ReadOptions;
  /** Keep each page's out-links (needs `read.links`, for the web graph). Default: read.links. */
  keepLinks?: boolean;
  /** content 'main': how each host's template is learnt as the crawl streams (trustAfter, share, maxHeldBytes). Default: the learner's. */
  templates?: LearnerOptions;
  /** content 'main': sites whose template is already settled (an index's): their pages are sketched against it at once, not learnt again. */
  sites?: ReadonlyMap<string, BigUint64Array | undefined>;
  /** content 'main': the site a page's template belongs to, from its URL (default: a SiteRouter's manual roots, template/sites.ts; `siteOfUrl` gives host and first directory). */
  siteOf?: (url: string) => string;
  /** Called with each batch's documents before their bytes are let go (work that needs the text, in the same pass). */
  onBatch?: (docs: readonly Document[], first: number) => void;
  /** Called as documents are read and sketched. */
  onProgress?: (p: StreamProgress) => void;
  /** Called with each batch's sketches in input order (DocIds first..first + set.size − 1), as soon as all before it are done. */
  onSketched?: (set: SketchSet, first: number) => void;
  /**
   * Called with each batch's sketches and their DocIds (row k is DocId ids[k]) as batches are
   * done: in input order, or in content mode in the order pages are released. Reading waits for
   * a returned promise (a sink writing the rows to disk holds the reading back this way).
   */
  onRows?: (set: SketchSet, ids: Uint32Array) => void | Promise<void>;
  /**
   * Sketch only the pages this accepts (by URL), e.g. one shard's hosts: the others are read and
   * keep their DocIds and columns, but are not sketched (their rows are empty) and reach no
   * callback. Needs `retain: false` and `onRows` (DocIds then have gaps); default: every page.
   */
  keep?: (url: string) => boolean;
  /** Keep every batch's sketches for the returned set (default true); false returns an empty set (memory: the columns only). */
  retain?: boolean;
  /**
   * The returned set's values and offsets on SharedArrayBuffers (default false), so that a worker
   * pool estimating pairs of it reads the rows in place instead of a copy of them all.
   */
  sharedRows?: boolean;
  /**
   * Write every page's UTF-8 bytes to a temporary file in this folder as it streams by, so that
   * later stages can read single pages back (`CrawlSketch.spill`); default: no spill file. Costs
   * disk as large as the pages and one sequential write; the page cache holds it, not the heap.
   * With `records`, only the pages that cannot be read back from the input are written.
   */
  spillDir?: string;
  /**
   * Keep where each page's record lies in its input (`CrawlSketch.records`, about 20 bytes a page)
   * when it can be read back alone there: a line of a plain JSONL file, a record of a plain WARC
   * file or of a `.warc.gz` with one gzip member per record, a folder's file. Default false.
   */
  records?: boolean;
}

/** A crawl read and sketched: the sketches and the small per-document columns, no page bytes. */
export interface CrawlSketch {
  set: SketchSet;
  params: SketchParams;
  /** Pages read (every column's length; reading it makes no strings). */
  pages: number;
  /** Per DocId: URL as read, where it came from, fetch date (ms since 1970, NaN when unknown), page size in bytes. Made into strings the first time it is read. */
  urls: string[];
  /** Made into strings the first time it is read (kept compact while the crawl streams by). */
  sources: string[];
  dates: Float64Array;
  sizes: Float64Array;
  /** Out-links per DocId, when kept. */
  links?: (string[] | undefined)[];
  /** content 'main': the template tables the pages were sketched against, per DocId. */
  templates?: CrawlTemplates;
  /** Read errors, skip counts and input bytes read, as the readers reported them. */
  errors: ReadError[];
  skipped: SkipCounts;
  bytes: number;
  /** Sketching errors, by DocId. */
  sketchErrors: SketchError[];
  /** Workers used (1: inline). */
  workers: number;
  /** The pages' bytes on disk, when `spillDir` was given (with `records`: those of pages without a record, if any). */
  spill?: Spill;
  /** Where each page can be read back from the input, with `records`. */
  records?: CrawlRecords;
}

const KNOWN = ['sketch', 'workers', 'pool', 'batchBytes', 'pageSlabBytes', 'read', 'keepLinks', 'templates', 'sites', 'siteOf', 'onBatch', 'onProgress', 'onSketched', 'onRows', 'retain', 'sharedRows', 'spillDir', 'records', 'keep'] as const;

const NO_SITE = { site: '', host: '' };
/** Batches' worth of released pages waiting for their template past which the reading waits. */
const AWAITING_BATCHES = 4;

/** Takes the options; returns the worker count they ask for (default: available cores), validated. */
export function workerCount(workers: unknown): number {
  return intOption('workers', workers, Math.max(1, availableParallelism()), 1, 256);
}

class Columns {
  urls = new UrlColumn();
  sources = new SourceColumn();
  dates: number[] = [];
  sizes: number[] = [];
  links: (string[] | undefined)[] = [];
}

/**
 * Takes input path(s) and options; reads, batches and sketches every document while reading goes
 * on, and returns the sketches with the small per-document columns. Memory: the sketches, the
 * columns, and the batches in flight (at most 2 per worker plus one being filled); in content
 * mode also the pages held while their site's template is learnt (the learner's byte bound).
 */
export async function sketchCrawl(input: Inputs, options: SketchCrawlOptions = {}): Promise<CrawlSketch> {
  rejectUnknown(options, KNOWN, 'sketchCrawl');
  const sketching = options.sketch !== false;
  const sketchOptions = options.sketch || {};
  const params = resolveSketchOptions(sketchOptions);
  const main = sketching && params.content === 'main';
  if (options.pool !== undefined && (options.pool === null || typeof options.pool.sketchMany !== 'function')) throw optionError('pool', 'a Pool (createPool)', options.pool);
  const workers = options.pool ? options.pool.size : workerCount(options.workers);
  const batchBytes = intOption('batchBytes', options.batchBytes, 4 << 20, 1024, 256 << 20);
  if (options.retain !== undefined && typeof options.retain !== 'boolean') throw optionError('retain', 'boolean', options.retain);
  const retain = options.retain ?? true;
  if (options.sharedRows !== undefined && typeof options.sharedRows !== 'boolean') throw optionError('sharedRows', 'boolean', options.sharedRows);
  if (options.sharedRows && typeof SharedArrayBuffer !== 'function') throw optionError('sharedRows', 'false where there is no SharedArrayBuffer', options.sharedRows);
  const shared = options.sharedRows ?? false;
  for (const name of ['onBatch', 'onProgress', 'onSketched', 'onRows', 'siteOf', 'keep'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw optionError(name, 'a function', options[name]);
  }
  if (!main && options.templates !== undefined) throw optionError('templates', "no value unless the sketch options say content 'main'", 'options');
  if (!main && options.sites !== undefined) throw optionError('sites', "no value unless the sketch options say content 'main'", 'a map');
  if (options.sites !== undefined && !(options.sites instanceof Map)) throw optionError('sites', 'a Map of site → table', options.sites);
  if (!main && options.siteOf !== undefined) throw optionError('siteOf', "no value unless the sketch options say content 'main'", 'a function');
  if (main && options.onBatch) throw optionError('onBatch', "no value with content 'main' (pages are released by site, not in input order)", 'a function');
  if (main && options.onSketched) throw optionError('onSketched', "no value with content 'main' (pages are released by site, not in input order)", 'a function');
  if (options.spillDir !== undefined && (typeof options.spillDir !== 'string' || options.spillDir === '')) throw optionError('spillDir', 'a folder path', options.spillDir);
  if (options.keep && (retain || options.onBatch || options.onSketched || options.spillDir !== undefined)) throw optionError('keep', 'retain: false and onRows (no onBatch, onSketched or spillDir)', 'a function');
  if (options.records !== undefined && typeof options.records !== 'boolean') throw optionError('records', 'boolean', options.records);
  // templates learnt on the pool once it has answered a batch (before, while its workers start, on this thread)
  let poolAnswered = false;
  // a held page moves to the site it belongs to once its site's first pages are known (sites.ts)
  const reroute = (site: string, id: number, doc: DocInput): string => (router ? router.route(cols.urls.at(id)!, () => pageIdentity(doc)).site : site);
  const learner = main ? new TemplateLearner<number>(options.templates ?? {}, (docs, how) => (poolAnswered ? pool!.learnTemplate(docs, how) : undefined), reroute) : undefined;
  // the URL parsed once for both (the default site) or twice (a site of the caller's)
  const siteOf = options.siteOf;
  const router: SiteRouter | undefined = main && !siteOf ? new SiteRouter(learner!.trustAfter) : undefined;
  const siteAndHost = (url: string, bytes: Uint8Array) => (siteOf ? { site: siteOf(url), host: hostOfUrl(url) } : router!.route(url, () => pageIdentity(bytes)));
  const content = main ? new ContentBatches() : undefined;
  const read = options.read ?? {};
  // Page bytes from reused slabs, each released when its batch is sketched and it is on disk (not
  // when the caller hands the reader its own buffers).
  const arena = read.pageBytes === undefined ? new PageArena(intOption('pageSlabBytes', options.pageSlabBytes, SLAB_BYTES, 64 << 10, 1 << 30)) : undefined;
  const release = (pages: readonly Uint8Array[]) => { if (arena) for (const p of pages) arena.release(p); };
  const keepLinks = options.keepLinks ?? read.links ?? false;
  const errors: ReadError[] = [];
  const skipped = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as SkipCounts;
  const progress: StreamProgress = { read: 0, sketched: 0, bytes: 0 };
  const report = () => options.onProgress?.(progress);
  const cols = new Columns();
  const sketchErrors: SketchError[] = [];
  // Each part: the DocIds of its rows (consecutive, except in content mode) and their sketches.
  const parts: { ids: Uint32Array; columns: SketchSet }[] = [];
  // Started at the first batch that is not the last: a crawl of one batch is sketched inline,
  // without paying for starting workers. `owned` is the pool started here (closed at the end).
  let pool: Pool | undefined, owned: Pool | undefined;
  const inflight: { ids: Uint32Array; done: Promise<SketchSet> }[] = [];
  const maxInflight = 2 * workers;

  const collect = async (ids: Uint32Array, set: SketchSet) => {
    for (const e of set.errors) sketchErrors.push({ index: ids[e.index], message: e.message.replace(/^document \d+/, `document ${ids[e.index]}`) });
    options.onSketched?.(set, ids[0]);
    if (retain) parts.push({ ids, columns: set });
    await options.onRows?.(set, ids);
  };
  let reportFailed: { error: unknown } | undefined;
  const drain = async (keep: number) => {
    while (inflight.length > keep) {
      const job = inflight.shift()!;
      await collect(job.ids, await job.done);
      if (reportFailed) throw reportFailed.error;
    }
  };
  // The batch being filled: documents in read order (page mode), or pages as the learner releases them.
  let docs: Document[] = [];
  let pending: { id: number; bytes: Uint8Array; site: string; table: BigUint64Array | undefined }[] = [];
  let batchSize = 0;
  const enqueue = (id: number, bytes: Uint8Array, site = '', table?: BigUint64Array) => {
    pending.push({ id, bytes, site, table });
    batchSize += bytes.length;
  };
  // content 'main': pages released with a template still being learnt wait for it here, per template
  const awaiting = new Map<LearntTemplate, { id: number; bytes: Uint8Array; site: string }[]>();
  let awaitingBytes = 0, learnFailed: { error: unknown } | undefined;
  const given = new Map<string, TableRef>();
  const released = (r: ReleasedPage<number>) => {
    const t = r.template, bytes = r.doc as Uint8Array;
    content!.release(r.item, r.host, t);
    if (t.done) return enqueue(r.item, bytes, r.host, t.table);
    let list = awaiting.get(t);
    if (!list) {
      const pages: { id: number; bytes: Uint8Array; site: string }[] = list = [];
      awaiting.set(t, pages);
      t.ready!.then(() => {
        awaiting.delete(t);
        for (const p of pages) { awaitingBytes -= p.bytes.length; enqueue(p.id, p.bytes, p.site, t.table); }
      }, (error) => { learnFailed ??= { error }; });
    }
    list.push({ id: r.item, bytes, site: r.host });
    awaitingBytes += bytes.length;
  };
  /** Waits for templates being learnt: the oldest while over the bound (or every one, `all`). */
  const awaitTemplates = async (all: boolean) => {
    for (;;) {
      if (learnFailed) throw learnFailed.error;
      const oldest = awaiting.keys().next();
      if (oldest.done || (!all && awaitingBytes <= AWAITING_BATCHES * batchBytes)) return;
      await oldest.value.ready!.catch(() => undefined);
    }
  };
  const flush = async (last: boolean) => {
    if (pending.length === 0) return;
    const ids = Uint32Array.from(pending, (p) => p.id);
    if (docs.length) options.onBatch?.(docs, ids[0]);
    const bytes = pending.map((p) => p.bytes);
    const templates = content?.batch(pending);
    docs = []; pending = []; batchSize = 0;
    if (!sketching) {
      release(bytes);
      progress.sketched += ids.length;
      report();
      return;
    }
    if (!pool && workers > 1 && !last) pool = options.pool ?? (owned = createPool({ workers }));
    const opts = templates ? { ...sketchOptions, templates } : sketchOptions;
    if (pool) {
      // the batch goes to one worker as it is (the pool would cut it for balance: many messages
      // for nothing, when several batches are in flight anyway)
      const done = pool.sketchMany(bytes, { ...opts, batchBytes: Math.min(256 << 20, Math.max(1024, 2 * batchBytes)) });
      // Awaited in order by drain; counted here as soon as it is done (the catch keeps an early failure from going unhandled).
      // (a progress callback that throws, a run cancelled, fails the run where it is awaited, not as an unhandled rejection)
      done.then(() => {
        poolAnswered = true; release(bytes); progress.sketched += ids.length;
        try { report(); } catch (e) { reportFailed ??= { error: e }; }
      }, () => release(bytes));
      inflight.push({ ids, done });
      await drain(maxInflight - 1);
    } else {
      const set = sketchMany(bytes, opts);
      release(bytes);
      await collect(ids, set);
      progress.sketched += ids.length;
      report();
    }
  };

  const records = options.records ? new RecordColumns() : undefined;
  // opened with the first page to write
  let spill: PageSpillWriter | undefined;
  try {
    const reading = readCrawl(input, {
      ...read,
      ...(arena ? { pageBytes: arena.alloc } : {}),
      links: keepLinks || read.links === true,
      onError: (e) => { errors.push(e); read.onError?.(e); },
      onSkip: (s) => { skipped[s.reason]++; read.onSkip?.(s); },
      onBytes: (n) => { progress.bytes += n; read.onBytes?.(n); },
    });
    for await (const doc of reading) {
      const id = cols.urls.length;
      cols.urls.push(doc.url);
      const source = doc.source ?? doc.url;
      cols.sources.push(source);
      cols.dates.push(doc.date ? Date.parse(doc.date) : NaN);
      cols.sizes.push(doc.bytes.length);
      if (keepLinks) cols.links.push(doc.links);
      // a page of another shard: counted, not sketched (the reader's hold on its bytes ends here)
      if (options.keep && !options.keep(doc.url)) {
        arena?.release(doc.bytes);
        progress.read++;
        continue;
      }
      // the reader's hold on an arena page passes to its batch; the spill file takes one more
      let bytes = utf8Bytes(doc);
      const placed = records?.add(id, doc.origin, source) ?? false;
      if (options.spillDir !== undefined && !placed) {
        spill ??= openPageSpill(options.spillDir, release);
        if (bytes.length > 0) arena?.hold(bytes);
        spill.write(id, bytes);
        if (spill.busy) await spill.drain();
      }
      // a page of a site the caller knows (an index's) keeps that site's template
      const known = learner && options.sites ? deepestKnownSite(options.sites, doc.url) : undefined;
      const { site, host } = known !== undefined ? { site: known, host: '' } : learner ? siteAndHost(doc.url, bytes) : NO_SITE;
      if (known !== undefined) {
        let ref = given.get(site);
        if (!ref) given.set(site, ref = { table: options.sites!.get(site) });
        content!.release(id, site, ref);
        enqueue(id, bytes, site, ref.table);
      } else if (learner) {
        // a page of a site learnt is released with its template, the learner left alone
        const template = learner.settled(site, host);
        if (template) released({ doc: bytes, host: site, item: id, template });
        else {
          // a page the learner may keep is a copy of its own (the arena page goes back at once)
          if (arena) { const kept = bytes.slice(); arena.release(bytes); bytes = kept; }
          const ready = learner.addDeferred(bytes, site, id, host);
          if (ready.length !== 1 || ready[0].item !== id) content!.heldPages += ready.length;
          for (const r of ready) released(r);
        }
        if (learnFailed || awaitingBytes > AWAITING_BATCHES * batchBytes) await awaitTemplates(false);
      } else {
        docs.push(doc);
        enqueue(id, bytes);
      }
      progress.read++;
      if (batchSize >= batchBytes) await flush(false);
      else if (progress.read % 64 === 0) report();
    }
    if (learner) {
      const rest = learner.flushDeferred();
      content!.heldPages += rest.length;
      for (const r of rest) {
        released(r);
        if (batchSize >= batchBytes) await flush(false);
      }
      await awaitTemplates(true);
    }
    await flush(true);
    await drain(0);
    await spill?.close();
  } catch (e) {
    spill?.spill.remove();
    throw e;
  } finally {
    await owned?.close();
  }
  const n = retain && sketching ? cols.urls.length : 0;
  let set: SketchSet;
  if (!main) {
    set = assembleSketchSet(params, n, parts.map((p) => ({ start: p.ids[0], end: p.ids[0] + p.ids.length, columns: p.columns })), retain ? sketchErrors : [], shared);
  } else {
    // rows in the order pages were sketched, each put in its DocId's place
    set = scatterSketchSet(params, n, parts, retain ? sketchErrors : [], shared);
  }
  const sizes = Float64Array.from(cols.sizes);
  // the sources and URLs stay compact until asked for (a run that prints no error never makes the sources strings)
  const column = cols.sources, urlColumn = cols.urls;
  let sources: string[] | undefined, urls: string[] | undefined;
  return {
    set, params,
    get urls() { return (urls ??= urlColumn.toArray()); },
    set urls(value: string[]) { urls = value; },
    pages: urlColumn.length,
    get sources() { return (sources ??= column.toArray()); },
    set sources(value: string[]) { sources = value; },
    dates: Float64Array.from(cols.dates), sizes,
    links: keepLinks ? cols.links : undefined, errors, skipped, bytes: progress.bytes, sketchErrors, workers: pool ? workers : 1,
    spill: spill?.spill, templates: content?.result(cols.urls.length),
    ...(records ? { records: records.finish(column, sizes) } : {}),
  };
}
