import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { optionError } from '../errors.js';
import type { Document, ReadError } from '../graph/document.js';
import { WebGraph } from '../graph/web-graph.js';
import { readFolder } from './folder.js';
import { readJsonl } from './jsonl.js';
import { makeDocument } from './make-document.js';
import { resolveReadOptions, type InputKind, type ReadOptions, type ResolvedReadOptions, type SkipReason } from './options.js';
import { contentTypeFromName } from './sniff.js';
import { readUrlList } from './url-list.js';
import { readWarc } from './warc.js';

/** Takes an input path; returns its kind from what it is (folder) or its name, or undefined when it cannot be read. */
export async function detectKind(input: string): Promise<InputKind | undefined> {
  try {
    if ((await stat(input)).isDirectory()) return 'folder';
  } catch {
    return undefined;
  }
  const name = basename(input).toLowerCase();
  if (/\.warc(\.gz)?$/.test(name)) return 'warc';
  if (/\.(jsonl|ndjson)(\.gz)?$/.test(name)) return 'jsonl';
  if (/\.(txt|urls|lst)(\.gz)?$/.test(name)) return 'urls';
  return 'file';
}

/** Takes one file of any other kind (an `.html` page, say); yields it as one document with a `file:` URL. */
export async function* readSingleFile(path: string, options: ReadOptions = {}): AsyncGenerator<Document> {
  const opts = resolveReadOptions(options, 'readSingleFile');
  let bytes: Uint8Array;
  try {
    const buf = await readFile(path);
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  } catch (e) {
    opts.onError({ source: path, location: path, code: 'E_IO', message: (e as Error).message });
    return;
  }
  opts.onBytes(bytes.length);
  const url = pathToFileURL(resolve(path)).href;
  const doc = makeDocument({ url, bytes, mime: contentTypeFromName(basename(path)), source: path }, opts.links);
  if (doc) yield doc;
  else opts.onSkip({ reason: 'binary', source: path, location: path });
}

async function* readOne(input: string, opts: ResolvedReadOptions): AsyncGenerator<Document> {
  const kind = opts.kind ?? (await detectKind(input));
  if (kind === undefined) {
    opts.onError({ source: input, location: input, code: 'E_IO', message: 'no such file or folder, or not readable' });
    return;
  }
  const readers = { folder: readFolder, warc: readWarc, jsonl: readJsonl, urls: readUrlList, file: readSingleFile };
  yield* readers[kind](input, opts);
}

/**
 * Takes one input path or several (wget mirror folder, `.warc[.gz]`, `.jsonl[.gz]`, URL list
 * `.txt|.urls|.lst`, or any other single file) and reader options; yields every document, inputs
 * in the order given. Nothing throws for bad input: each problem goes to `onError` with its location.
 */
export async function* readCrawl(input: string | readonly string[], options: ReadOptions = {}): AsyncGenerator<Document> {
  const opts = resolveReadOptions(options, 'readCrawl');
  for (const one of typeof input === 'string' ? [input] : input) yield* readOne(one, opts);
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
export async function loadCrawl(input: string | readonly string[], options: LoadOptions = {}): Promise<LoadedCrawl> {
  const { onDocument, ...readOptions } = options;
  if (onDocument !== undefined && typeof onDocument !== 'function') throw optionError('onDocument', 'a function', onDocument);
  const opts = resolveReadOptions(readOptions, 'loadCrawl');
  const errors: ReadError[] = [];
  const skipped: SkipCounts = { binary: 0, status: 0, other: 0 };
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
export async function inputSize(input: string | readonly string[]): Promise<number> {
  let total = 0;
  for (const one of typeof input === 'string' ? [input] : input) total += await sizeOf(one).catch(() => 0);
  return total;
}
