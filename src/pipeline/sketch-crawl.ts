// Read → batch → sketch, streaming: documents come from the readers one by one, are grouped into
// batches of a few MiB, and each batch is sketched (on the worker pool, or inline with one worker)
// while reading goes on. A page's bytes are let go once its batch is handed over; what later
// stages need is kept as small columns (URL, source, date, size, links when asked for). Batches
// are put back in input order, so DocIds are read positions and the sketches are bit-identical
// for any worker count.
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ResembleError, intOption, optionError, rejectUnknown } from '../errors.js';
import { utf8Bytes, type Document, type ReadError } from '../graph/document.js';
import { readCrawl, type SkipCounts } from '../io/crawl.js';
import { SKIP_REASONS, type ReadOptions } from '../io/options.js';
import { resolveSketchOptions, type SketchOptions, type SketchParams } from '../sketch/options.js';
import type { SketchError, SketchSet } from '../sketch/sketch-set.js';
import { sketchMany } from '../sketch/sketch.js';
import { createPool, type Pool } from '../workers/node.js';
import { assembleSketchSet } from '../workers/pool.js';

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
  /** Input bytes per batch (default 4 MiB): bounds what is held while a batch waits for a worker. */
  batchBytes?: number;
  /** Reader options (links, scheme, kind, allStatuses, onError, onSkip, onBytes). `links` defaults to false here. */
  read?: ReadOptions;
  /** Keep each page's out-links (needs `read.links`, for the web graph). Default: read.links. */
  keepLinks?: boolean;
  /** Called with each batch's documents before their bytes are let go (work that needs the text, in the same pass). */
  onBatch?: (docs: readonly Document[], first: number) => void;
  /** Called as documents are read and sketched. */
  onProgress?: (p: StreamProgress) => void;
  /** Called with each batch's sketches in input order (DocIds first..first + set.size − 1), as soon as all before it are done. */
  onSketched?: (set: SketchSet, first: number) => void;
  /** Keep every batch's sketches for the returned set (default true); false returns an empty set (memory: the columns only). */
  retain?: boolean;
  /**
   * Write every page's UTF-8 bytes to a temporary file in this folder as it streams by, so that
   * later stages can read single pages back (`CrawlSketch.spill`); default: no spill file. Costs
   * disk as large as the pages and one sequential write; the page cache holds it, not the heap.
   */
  spillDir?: string;
}

/** Pages written to a temporary file in read order: page d is `length[d]` bytes at `offset[d]`. */
export interface Spill {
  path: string;
  offset: Float64Array;
  length: Float64Array;
  /** Removes the file and its folder. */
  remove(): void;
}

/** A crawl read and sketched: the sketches and the small per-document columns, no page bytes. */
export interface CrawlSketch {
  set: SketchSet;
  params: SketchParams;
  /** Per DocId: URL as read, where it came from, fetch date (ms since 1970, NaN when unknown), page size in bytes. */
  urls: string[];
  sources: string[];
  dates: Float64Array;
  sizes: Float64Array;
  /** Out-links per DocId, when kept. */
  links?: (string[] | undefined)[];
  /** Read errors, skip counts and input bytes read, as the readers reported them. */
  errors: ReadError[];
  skipped: SkipCounts;
  bytes: number;
  /** Sketching errors, by DocId. */
  sketchErrors: SketchError[];
  /** Workers used (1: inline). */
  workers: number;
  /** The pages' bytes on disk, when `spillDir` was given. */
  spill?: Spill;
}

const KNOWN = ['sketch', 'workers', 'batchBytes', 'read', 'keepLinks', 'onBatch', 'onProgress', 'onSketched', 'retain', 'spillDir'] as const;

/** Opens a spill file in a new folder under `dir`; returns its writer. */
function openSpill(dir: string): { spill: Spill; write(bytes: Uint8Array): void; close(): void } {
  let folder: string;
  try {
    mkdirSync(dir, { recursive: true });
    folder = mkdtempSync(join(dir, 'resemble-pages-'));
  } catch (e) {
    throw new ResembleError('E_IO', `cannot make a temporary folder in ${dir}: ${(e as Error).message}`, { path: dir });
  }
  const path = join(folder, 'pages.bin');
  const fd = openSync(path, 'w');
  let at = 0, open = true;
  const offsets: number[] = [], lengths: number[] = [];
  const spill: Spill = {
    path, offset: new Float64Array(0), length: new Float64Array(0),
    remove: () => { if (open) { closeSync(fd); open = false; } rmSync(folder, { recursive: true, force: true }); },
  };
  return {
    spill,
    write(bytes) {
      offsets.push(at); lengths.push(bytes.length);
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
      at += bytes.length;
    },
    close() {
      if (open) { closeSync(fd); open = false; }
      spill.offset = Float64Array.from(offsets); spill.length = Float64Array.from(lengths);
    },
  };
}

/** Takes the options; returns the worker count they ask for (default: available cores), validated. */
export function workerCount(workers: unknown): number {
  return intOption('workers', workers, Math.max(1, availableParallelism()), 1, 256);
}

class Columns {
  urls: string[] = [];
  sources: string[] = [];
  dates: number[] = [];
  sizes: number[] = [];
  links: (string[] | undefined)[] = [];
}

/**
 * Takes input path(s) and options; reads, batches and sketches every document while reading goes
 * on, and returns the sketches with the small per-document columns. Memory: the sketches, the
 * columns, and the batches in flight (at most 2 per worker plus one being filled).
 */
export async function sketchCrawl(input: string | readonly string[], options: SketchCrawlOptions = {}): Promise<CrawlSketch> {
  rejectUnknown(options, KNOWN, 'sketchCrawl');
  const sketching = options.sketch !== false;
  const sketchOptions = options.sketch || {};
  const params = resolveSketchOptions(sketchOptions);
  const workers = workerCount(options.workers);
  const batchBytes = intOption('batchBytes', options.batchBytes, 4 << 20, 1024, 256 << 20);
  if (options.retain !== undefined && typeof options.retain !== 'boolean') throw optionError('retain', 'boolean', options.retain);
  const retain = options.retain ?? true;
  for (const name of ['onBatch', 'onProgress', 'onSketched'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw optionError(name, 'a function', options[name]);
  }
  if (options.spillDir !== undefined && (typeof options.spillDir !== 'string' || options.spillDir === '')) throw optionError('spillDir', 'a folder path', options.spillDir);
  const read = options.read ?? {};
  const keepLinks = options.keepLinks ?? read.links ?? false;
  const errors: ReadError[] = [];
  const skipped = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as SkipCounts;
  const progress: StreamProgress = { read: 0, sketched: 0, bytes: 0 };
  const report = () => options.onProgress?.(progress);
  const cols = new Columns();
  const sketchErrors: SketchError[] = [];
  const parts: { start: number; end: number; columns: SketchSet }[] = [];
  // Started at the first batch that is not the last: a crawl of one batch is sketched inline,
  // without paying for starting workers.
  let pool: Pool | undefined;
  const inflight: { start: number; end: number; done: Promise<SketchSet> }[] = [];
  const maxInflight = 2 * workers;

  const collect = (start: number, end: number, set: SketchSet) => {
    for (const e of set.errors) sketchErrors.push({ index: start + e.index, message: e.message.replace(/^document \d+/, `document ${start + e.index}`) });
    options.onSketched?.(set, start);
    if (retain) parts.push({ start, end, columns: set });
  };
  const drain = async (keep: number) => {
    while (inflight.length > keep) {
      const job = inflight.shift()!;
      collect(job.start, job.end, await job.done);
    }
  };
  let batch: Document[] = [];
  let batchSize = 0;
  const start0 = () => cols.urls.length - batch.length;
  const flush = async (last: boolean) => {
    if (batch.length === 0) return;
    if (!sketching) {
      options.onBatch?.(batch, start0());
      if (spill) for (const d of batch) spill.write(utf8Bytes(d));
      progress.sketched += batch.length;
      batch = []; batchSize = 0;
      report();
      return;
    }
    if (!pool && workers > 1 && !last) pool = createPool({ workers });
    const start = cols.urls.length - batch.length, end = cols.urls.length;
    options.onBatch?.(batch, start);
    const bytes = batch.map(utf8Bytes);
    if (spill) for (const b of bytes) spill.write(b);
    batch = []; batchSize = 0;
    if (pool) {
      const done = pool.sketchMany(bytes, sketchOptions);
      // Awaited in order by drain; counted here as soon as it is done (the catch keeps an early failure from going unhandled).
      done.then(() => { progress.sketched += end - start; report(); }, () => undefined);
      inflight.push({ start, end, done });
      await drain(maxInflight - 1);
    } else {
      collect(start, end, sketchMany(bytes, sketchOptions));
      progress.sketched += end - start;
      report();
    }
  };

  const spill = options.spillDir !== undefined ? openSpill(options.spillDir) : undefined;
  try {
    const reading = readCrawl(input, {
      ...read,
      links: keepLinks || read.links === true,
      onError: (e) => { errors.push(e); read.onError?.(e); },
      onSkip: (s) => { skipped[s.reason]++; read.onSkip?.(s); },
      onBytes: (n) => { progress.bytes += n; read.onBytes?.(n); },
    });
    for await (const doc of reading) {
      cols.urls.push(doc.url);
      cols.sources.push(doc.source ?? doc.url);
      cols.dates.push(doc.date ? Date.parse(doc.date) : NaN);
      cols.sizes.push(doc.bytes.length);
      if (keepLinks) cols.links.push(doc.links);
      batch.push(doc);
      batchSize += utf8Bytes(doc).length;
      progress.read++;
      if (batchSize >= batchBytes) await flush(false);
      else if (progress.read % 64 === 0) report();
    }
    await flush(true);
    await drain(0);
    spill?.close();
  } catch (e) {
    spill?.spill.remove();
    throw e;
  } finally {
    await pool?.close();
  }
  const n = retain && sketching ? cols.urls.length : 0;
  const set = assembleSketchSet(params, n, parts, retain ? sketchErrors : []);
  return {
    set, params, urls: cols.urls, sources: cols.sources, dates: Float64Array.from(cols.dates), sizes: Float64Array.from(cols.sizes),
    links: keepLinks ? cols.links : undefined, errors, skipped, bytes: progress.bytes, sketchErrors, workers: pool ? workers : 1,
    spill: spill?.spill,
  };
}
