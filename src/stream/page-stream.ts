// Read → batch → page job, streaming: the reader yields pages one by one; they are grouped into
// batches of a few MiB, and each batch's job (page-jobs.ts: paragraphs, bags of words, sketches,
// ...) runs on the worker pool (job kind 'page'), or inline with one worker, while reading goes on. A page's bytes
// are let go once its batch is handed over; what is kept is the small per-page columns (URL,
// source, size, links and IPs when asked for) and each batch's job result, in input order, so the
// result is the same for any worker count. Pages can be written to a spill file as they pass, for
// a later stage that must read some of them again (`readSpilled`).
import { intOption, optionError } from '../errors.js';
import { utf8Bytes, type Document, type ReadError } from '../graph/document.js';
import { WebGraph } from '../graph/web-graph.js';
import { readCrawl, type SkipCounts } from '../io/crawl.js';
import type { CrawlPhenomena } from '../io/crawl-phenomena.js';
import type { Inputs } from '../io/pages.js';
import { SKIP_REASONS, type ReadOptions } from '../io/options.js';
import { jobMessage, runPageJob, type PageJobResult, type PageWork } from './page-jobs.js';
import { createPool } from './pool-node.js';
import type { Pool } from './pool.js';
import { workerCount, type StreamProgress } from './sketch-crawl.js';
import { openPageSpill, type Spill } from './spill.js';

/** How a crawl is read as a stream: worker threads, batch size, reader options, progress. */
export interface StreamReadOptions {
  /** Threads computing while the input is read: 1 on the calling thread, N > 1 on N workers. Default: available cores. */
  workers?: number;
  /** Input bytes per batch (default 4 MiB). */
  batchBytes?: number;
  /** Reader options (scheme, kind, onError, onSkip, ...). */
  read?: ReadOptions;
  /** Called as pages are read and their batches done. */
  onProgress?: (p: StreamProgress) => void;
  /**
   * A pool of `workers` workers to run the batches on, left open (a caller with a later stage on
   * the same pool starts its worker isolates once). Default: one of the stream's own, closed at the end.
   */
  pool?: Pool;
}

/** Options of `streamPages`; every one but `job` has a default. */
export interface PageStreamOptions {
  /** What to compute for each batch: page columns with their parameters (nothing: only the per-page columns are kept). */
  job?: readonly PageWork[];
  /** Threads: 1 runs the job on the calling thread, N > 1 on a pool of N workers. Default: available cores. */
  workers?: number;
  /** Input bytes per batch (default 4 MiB): bounds what is held while a batch waits for a worker. */
  batchBytes?: number;
  /** Reader options (links, scheme, kind, onError, onSkip, onBytes, ...). `links` defaults to false here. */
  read?: ReadOptions;
  /** Keep each page's server IP address (`Document.ip`). Default false. */
  keepIps?: boolean;
  /** Write every page's UTF-8 bytes to a temporary file in this folder as it streams by (`PageStream.spill`). */
  spillDir?: string;
  /** Collect the crawl's web phenomena (variants, soft-404s, aliases, redirects) into this as it is read. Default: none. */
  phenomena?: CrawlPhenomena;
  /** Called as pages are read and their batches done. */
  onProgress?: (p: StreamProgress) => void;
  /**
   * A pool of `workers` workers to run the batches on, left open (a caller with a later stage on
   * the same pool starts its worker isolates once). Default: one of the stream's own, closed at the end.
   */
  pool?: Pool;
}

/** A crawl read as a stream: the small per-page columns and each batch's job result, no page bytes. */
export interface PageStream {
  /** Per DocId: URL as read, where it came from, size in bytes as read, and whether it is read as HTML. */
  urls: string[];
  sources: string[];
  sizes: Float64Array;
  /** Size of each page's UTF-8 bytes (what the jobs read). */
  utf8Sizes: Float64Array;
  html: Uint8Array;
  /** Out-links per DocId, when `read.links`. */
  links?: (string[] | undefined)[];
  /** Server IP per DocId, with `keepIps`. */
  ips?: (string | undefined)[];
  /** Each batch's result and its first DocId, in input order. */
  results: PageJobResult[];
  starts: number[];
  /** Read errors, skip counts and input bytes read, as the readers reported them. */
  errors: ReadError[];
  skipped: SkipCounts;
  bytes: number;
  /** Workers used (1: inline). */
  workers: number;
  /** The pages' bytes on disk, with `spillDir`. */
  spill?: Spill;
}

/** One batch of pages packed for a worker: bytes one after another, the end of each, and whether each is HTML. */
export interface PackedPages {
  bytes: Uint8Array;
  ends: Uint32Array;
  html: Uint8Array;
}

/**
 * Takes a pool, a job and a packed batch (its buffers are transferred: do not use them after);
 * returns the batch's columns, computed on a worker by the job kind 'page'.
 */
export async function runPageJobOn(pool: Pool, job: readonly PageWork[], batch: PackedPages): Promise<PageJobResult> {
  const message = jobMessage(job);
  const transfer = [...new Set([batch.bytes.buffer, batch.ends.buffer, batch.html.buffer].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer))];
  const [result] = await pool.workers.run<PageJobResult>('page', [{ start: 0, end: batch.ends.length, pack: () => ({ job: { job: message, ...batch }, transfer }) }], { name: 'page job' });
  return result;
}

/** Takes a document; returns 1 when it is read as HTML (its content type is HTML or unknown), else 0. */
export function isHtml(doc: Pick<Document, 'contentType'>): 0 | 1 {
  const t = doc.contentType;
  return t === undefined || t === 'text/html' || t === 'application/xhtml+xml' ? 1 : 0;
}

/** Takes pages; returns them packed into one buffer with their ends (the HTML flags given). */
function pack(pages: readonly Uint8Array[], html: readonly number[], size: number): PackedPages {
  const bytes = new Uint8Array(size), ends = new Uint32Array(pages.length);
  let at = 0;
  pages.forEach((p, i) => { bytes.set(p, at); at += p.length; ends[i] = at; });
  return { bytes, ends, html: Uint8Array.from(html) };
}

/**
 * Takes input path(s) and options; reads every page, runs the job on each batch while reading goes
 * on, and returns the columns and the batch results. Memory: the columns, the results, and the
 * batches in flight (at most 2 per worker plus one being filled).
 */
export async function streamPages(input: Inputs, options: PageStreamOptions = {}): Promise<PageStream> {
  const job = options.job ?? [];
  const working = job.length > 0;
  const workers = workerCount(options.workers);
  const batchBytes = intOption('batchBytes', options.batchBytes, 4 << 20, 1024, 256 << 20);
  if (options.spillDir !== undefined && (typeof options.spillDir !== 'string' || options.spillDir === '')) throw optionError('spillDir', 'a folder path', options.spillDir);
  const read = options.read ?? {};
  const keepLinks = read.links ?? false;
  const keepIps = options.keepIps ?? false;
  const errors: ReadError[] = [];
  const skipped = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as SkipCounts;
  const progress: StreamProgress = { read: 0, sketched: 0, bytes: 0 };
  const report = () => options.onProgress?.(progress);
  const urls: string[] = [], sources: string[] = [], sizes: number[] = [], utf8Sizes: number[] = [], html: number[] = [];
  const links: (string[] | undefined)[] = [], ips: (string | undefined)[] = [];
  const results: PageJobResult[] = [], starts: number[] = [];
  const inflight: { start: number; done: Promise<PageJobResult> }[] = [];
  let pool: Pool | undefined;

  const drain = async (keep: number) => {
    while (inflight.length > keep) {
      const b = inflight.shift()!;
      results.push(await b.done);
      starts.push(b.start);
    }
  };
  let pages: Uint8Array[] = [], flags: number[] = [], size = 0, first = 0;
  const spill = options.spillDir !== undefined ? openPageSpill(options.spillDir) : undefined;
  const flush = async (last: boolean) => {
    if (pages.length === 0) return;
    const batch = pages, batchFlags = flags, batchSize = size, start = first;
    pages = []; flags = []; size = 0; first += batch.length;
    const packed = working && (pool || (workers > 1 && !last)) ? pack(batch, batchFlags, batchSize) : undefined;
    if (!working) {
      progress.sketched += batch.length;
      report();
      return;
    }
    if (!pool && workers > 1 && !last) pool = options.pool ?? createPool({ workers });
    if (pool) {
      const done = runPageJobOn(pool, job, packed!);
      done.then(() => { progress.sketched += batch.length; report(); }, () => undefined);
      inflight.push({ start, done });
      await drain(2 * workers - 1);
    } else {
      results.push(runPageJob(job, batch, Uint8Array.from(batchFlags)));
      starts.push(start);
      progress.sketched += batch.length;
      report();
    }
  };

  const phenomena = options.phenomena;
  try {
    const reading = readCrawl(input, {
      ...read,
      links: keepLinks,
      onError: (e) => { errors.push(e); read.onError?.(e); },
      onSkip: (s) => { skipped[s.reason]++; phenomena?.skipped(s); read.onSkip?.(s); },
      onBytes: (n) => { progress.bytes += n; read.onBytes?.(n); },
    });
    for await (const doc of reading) {
      const bytes = utf8Bytes(doc);
      phenomena?.observe({ url: doc.url, bytes, ip: doc.ip }, urls.length);
      urls.push(doc.url);
      sources.push(doc.source ?? doc.url);
      sizes.push(doc.bytes.length);
      utf8Sizes.push(bytes.length);
      html.push(isHtml(doc));
      if (keepLinks) links.push(doc.links);
      if (keepIps) ips.push(doc.ip);
      if (spill) {
        spill.write(urls.length - 1, bytes);
        if (spill.busy) await spill.drain();
      }
      pages.push(bytes);
      flags.push(html[html.length - 1]);
      size += bytes.length;
      progress.read++;
      if (size >= batchBytes) await flush(false);
      else if (progress.read % 64 === 0) report();
    }
    await flush(true);
    await drain(0);
    await spill?.close();
  } catch (e) {
    spill?.spill.remove();
    throw e;
  } finally {
    if (pool !== options.pool) await pool?.close();
  }
  return {
    urls, sources, sizes: Float64Array.from(sizes), utf8Sizes: Float64Array.from(utf8Sizes), html: Uint8Array.from(html),
    links: keepLinks ? links : undefined, ips: keepIps ? ips : undefined,
    results, starts, errors, skipped, bytes: progress.bytes, workers: pool ? workers : 1, spill: spill?.spill,
  };
}

/** Takes a stream's columns; returns its web graph (links as read), reporting unparseable URLs to `onError` and adding them to the stream's errors. */
export function graphOf(stream: Pick<PageStream, 'urls' | 'sources' | 'links' | 'errors'>, onError?: (e: ReadError) => void): WebGraph {
  const docs: Document[] = stream.urls.map((url, i) => ({ url, bytes: EMPTY, links: stream.links?.[i], source: stream.sources[i] }));
  return WebGraph.fromDocuments(docs, { onError: (e) => { stream.errors.push(e); onError?.(e); } });
}

const EMPTY = new Uint8Array(0);
