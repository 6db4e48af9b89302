import { lstat, open, readdir, stat } from 'node:fs/promises';
import { constants as zlibConstants, gunzipSync, type ZlibOptions } from 'node:zlib';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { intOption, optionError, throwIfAborted } from '../errors.js';
import type { Document, ReadError } from '../graph/document.js';
import { WebGraph } from '../graph/web-graph.js';
import { readFolder, specialKind } from './folder.js';
import { isGzipMagic } from './gunzip.js';
import { capAdvice, formatBytes, ioError } from './lines.js';
import { readJsonl } from './jsonl.js';
import { makeDocument } from './make-document.js';
import { resolveReadOptions, type InputKind, type ReadOptions, type ResolvedReadOptions, type SkipReason, SKIP_REASONS } from './options.js';
import { contentTypeFromName, jsonLinesHead, sniffKind } from './sniff.js';
import { openInput, peekStdin, STDIN } from './source.js';
import { readUrlList } from './url-list.js';
import { readWarcAfter } from './warc.js';
import { PageSource, readPages, type Inputs } from './pages.js';
import { WarcPayloads } from './warc-revisit.js';

/** Takes the first bytes of an input; returns them inflated when they are gzip (as much as inflates), for sniffing. */
function inflatedHead(head: Uint8Array): Uint8Array {
  if (!isGzipMagic(head)) return head;
  // The head is cut wherever the read stopped: a sync flush gives what it inflates to so far. Past
  // 64 KiB zlib throws instead of truncating, so a shorter stretch of the head is inflated instead
  // (halved until it fits): the sniffer needs the first bytes, not all of them.
  for (let n = head.length; n > 0; n >>= 1) {
    try {
      const out = gunzipSync(head.subarray(0, n), { finishFlush: zlibConstants.Z_SYNC_FLUSH, maxOutputLength: 1 << 16 } as ZlibOptions);
      return new Uint8Array(out.buffer, out.byteOffset, out.length);
    } catch (e) {
      if ((e as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') return new Uint8Array(0);
    }
  }
  return new Uint8Array(0);
}

async function fileHead(path: string): Promise<Uint8Array> {
  const fh = await open(path, 'r');
  try {
    const buf = new Uint8Array(1 << 16);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/**
 * Takes an input path (or `-` for standard input); returns its kind from what it is (folder), its
 * name (`.warc`, `.wet`, `.wat`, `.jsonl`, `.txt`... with or without `.gz`), else its first bytes
 * (a `WARC/` line, JSON objects, URLs), or undefined when it cannot be read.
 */
export async function detectKind(input: string): Promise<InputKind | undefined> {
  if (input === STDIN) return sniffKind(inflatedHead(await peekStdin()));
  let info;
  try {
    info = await stat(input);
  } catch {
    return undefined;
  }
  if (info.isDirectory()) return 'folder';
  const name = basename(input).toLowerCase();
  if (/\.(warc|wet|wat|arc)(\.gz)?$|\.wacz$/.test(name)) return 'warc';
  if (/\.(jsonl|ndjson)(\.gz)?$/.test(name)) return 'jsonl';
  if (/\.(txt|urls|lst)(\.gz)?$/.test(name)) return 'urls';
  const named = contentTypeFromName(name.replace(/\.gz$/, ''));
  // Dolma's shards and many datasets are JSON Lines named `.json.gz`: one object a line, not one JSON document
  if (info.isFile() && named === 'application/json') {
    try {
      return jsonLinesHead(inflatedHead(await fileHead(input))) ? 'jsonl' : 'file';
    } catch {
      return 'file';
    }
  }
  if (!info.isFile() || (named !== undefined && named !== 'application/octet-stream')) return 'file';
  try {
    const kind = sniffKind(inflatedHead(await fileHead(input)));
    return kind === 'urls' ? 'file' : kind; // a URL list is only taken by its name: a page may start with a URL too
  } catch {
    return 'file';
  }
}

/** Extensions that name one page: no warning when such a file is read as one document. */
const PAGE_TYPES = new Set(['text/html', 'text/plain', 'text/markdown', 'application/xml', 'application/json']);

/**
 * Takes one file of any other kind (an `.html` page, say; gzip inflated; `-` for standard input);
 * yields it as one document with a `file:` URL. A special file (device, socket), an empty or binary
 * file and one over the record cap are reported and skipped; a file whose name does not say it is
 * a page is read with a warning that it became one opaque document.
 */
export async function* readSingleFile(path: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  const opts = resolveReadOptions(options, 'readSingleFile');
  const name = path === STDIN ? 'stdin' : basename(path).replace(/\.gz$/i, '');
  if (path !== STDIN) {
    try {
      const info = await stat(path);
      if (!info.isFile() && !info.isFIFO()) {
        opts.onError({ source: path, location: path, code: 'E_INPUT', message: `${specialKind(info)}, not a file to read; skipped` });
        return;
      }
    } catch (e) {
      opts.onError(ioError(path, path, e));
      return;
    }
  }
  let bytes: Uint8Array;
  try {
    const { reader } = await openInput(path, opts.onBytes, (d) => opts.onError({ source: path, location: `offset ${d.offset}`, code: 'E_INPUT', message: d.message }));
    bytes = await reader.read(opts.maxRecordBytes + 1);
    if (reader.barrier) return; // damage in a gzipped page: reported; the page is incomplete
    if (bytes.length > opts.maxRecordBytes) {
      opts.onError({ source: path, location: path, code: 'E_INPUT', message: `file of more than ${formatBytes(opts.maxRecordBytes)} is ${capAdvice(opts.maxRecordBytes)}; skipped` });
      return;
    }
  } catch (e) {
    opts.onError(ioError(path, path, e));
    return;
  }
  if (bytes.length === 0) {
    opts.onSkip({ reason: 'other', source: path, location: path, message: 'empty file; skipped' });
    return;
  }
  const url = path === STDIN ? 'file:///dev/stdin' : pathToFileURL(resolve(path)).href;
  const mime = contentTypeFromName(name);
  const doc = makeDocument({ url, bytes: bytes.slice(), mime, source: path }, opts.links);
  if (!doc) {
    opts.onSkip({ reason: 'binary', source: path, location: path, message: `binary content${mime ? ` (named ${mime})` : ''}, not a page; skipped` });
    return;
  }
  if (!(mime && PAGE_TYPES.has(mime)) && doc.contentType !== 'text/html') {
    opts.onWarning({ source: path, location: path, code: 'W_OPAQUE', message: `read as one opaque ${doc.contentType} document; a crawl is a folder, .warc[.gz], .wet, .jsonl[.gz] or URL list (--input-format names the kind)` });
  }
  yield doc;
}

async function* readOne(input: string, opts: ResolvedReadOptions, payloads: WarcPayloads): AsyncGenerator<Document> {
  const kind = opts.kind ?? (await detectKind(input));
  if (kind === undefined) {
    opts.onError({ source: input, location: input, code: 'E_IO', message: 'no such file or folder, or not readable' });
    return;
  }
  if (kind === 'folder' && input === STDIN) {
    opts.onError({ source: input, location: input, code: 'E_INPUT', message: 'standard input cannot be a folder' });
    return;
  }
  const warc = (path: string, o: ResolvedReadOptions) => readWarcAfter(path, o, payloads);
  const readers = { folder: readFolder, warc, jsonl: readJsonl, urls: readUrlList, file: readSingleFile };
  yield* readers[kind](input, opts);
}

/**
 * Takes one input path or several (wget mirror folder, `.warc[.gz]`, `.jsonl[.gz]`, URL list
 * `.txt|.urls|.lst`, or any other single file) and reader options; yields every document, inputs
 * in the order given. Nothing throws for bad input: each problem goes to `onError` with its location.
 */
export async function* readCrawl(input: Inputs, options: ReadOptions = {}): AsyncGenerator<Document> {
  const opts = resolveReadOptions(options, 'readCrawl');
  const signal = opts.signal;
  if (input instanceof PageSource) {
    for await (const doc of readPages(input, opts)) { throwIfAborted(signal); yield doc; }
    return;
  }
  // revisit records may name pages of earlier WARC files of the input
  const payloads = new WarcPayloads();
  for (const one of typeof input === 'string' ? [input] : input) {
    if (!signal) yield* readOne(one, opts, payloads);
    else for await (const doc of readOne(one, opts, payloads)) { throwIfAborted(signal); yield doc; }
  }
}

/** Options of `readBatches`: the reader options plus the batch bounds. */
export interface BatchOptions extends ReadOptions {
  /** A batch is handed out once its documents hold this many bytes. Default 8 MiB. */
  batchBytes?: number;
  /** ... or once it holds this many documents. Default 1024. */
  batchDocs?: number;
}

/** A batch of documents in input order; `firstId` is the DocId of its first document. */
export interface DocumentBatch {
  documents: Document[];
  firstId: number;
  /** Bytes of the documents' pages (what the batch holds in memory). */
  bytes: number;
}

/**
 * Takes input path(s) and options; yields the documents of `readCrawl` in batches (input order,
 * DocIds counted across batches), each handed out as soon as it reaches `batchBytes` or
 * `batchDocs`, so memory is bounded by a batch (plus one record up to `maxRecordBytes`) while
 * reading goes on. Concatenating the batches gives exactly what `readCrawl` yields.
 */
export async function* readBatches(input: Inputs, options: BatchOptions = {}): AsyncGenerator<DocumentBatch> {
  const { batchBytes, batchDocs, ...readOptions } = options;
  const maxBytes = intOption('batchBytes', batchBytes, 8 << 20, 1, 2 ** 40);
  const maxDocs = intOption('batchDocs', batchDocs, 1024, 1, 2 ** 31 - 1);
  let batch: Document[] = [];
  let bytes = 0;
  let firstId = 0;
  for await (const doc of readCrawl(input, readOptions)) {
    batch.push(doc);
    bytes += doc.bytes.length + (doc.utf8?.length ?? 0);
    if (bytes >= maxBytes || batch.length >= maxDocs) {
      yield { documents: batch, firstId, bytes };
      firstId += batch.length;
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) yield { documents: batch, firstId, bytes };
}

/** Counts of records read but not kept, by reason. */
export type SkipCounts = Record<SkipReason, number>;

/** A whole crawl in memory: documents in DocId order, their web graph, and what was reported. */
export interface LoadedCrawl {
  documents: Document[];
  graph: WebGraph;
  errors: ReadError[];
  skipped: SkipCounts;
  /** Input bytes read from disk (compressed bytes for `.gz`). */
  bytes: number;
}

/** Options of `loadCrawl`: the reader options plus a callback per document kept. */
export interface LoadOptions extends ReadOptions {
  /** Called with each document as it is kept and its DocId (for progress). Default: none. */
  onDocument?: (doc: Document, docId: number) => void;
}

/** Takes input path(s) and options; returns every document, the web graph, the errors and the skip counts. */
export async function loadCrawl(input: Inputs, options: LoadOptions = {}): Promise<LoadedCrawl> {
  const { onDocument, ...readOptions } = options;
  if (onDocument !== undefined && typeof onDocument !== 'function') throw optionError('onDocument', 'a function', onDocument);
  const opts = resolveReadOptions(readOptions, 'loadCrawl');
  const errors: ReadError[] = [];
  const skipped = Object.fromEntries(SKIP_REASONS.map((r) => [r, 0])) as SkipCounts;
  let bytes = 0;
  const documents: Document[] = [];
  const reading = readCrawl(input, {
    ...opts,
    onError: (e) => { errors.push(e); opts.onError(e); },
    onSkip: (s) => { skipped[s.reason]++; opts.onSkip(s); },
    onBytes: (n) => { bytes += n; opts.onBytes(n); },
  });
  for await (const doc of reading) {
    documents.push(doc);
    onDocument?.(doc, documents.length - 1);
  }
  const graph = WebGraph.fromDocuments(documents, { onError: (e) => { errors.push(e); opts.onError(e); } });
  return { documents, graph, errors, skipped, bytes };
}

async function sizeOf(path: string, top = true): Promise<number> {
  // Below the top, symlinks count 0 as readFolder does not follow them into folders.
  const info = top ? await stat(path) : await lstat(path);
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const name of await readdir(path)) total += await sizeOf(join(path, name), false).catch(() => 0);
  return total;
}

/** Takes input path(s); returns their total size in bytes (folders walked), for a progress bar's ETA. Unreadable paths count 0. */
export async function inputSize(input: Inputs): Promise<number> {
  if (input instanceof PageSource) return 0;
  let total = 0;
  for (const one of typeof input === 'string' ? [input] : input) total += await sizeOf(one).catch(() => 0);
  return total;
}
