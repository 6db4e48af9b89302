// What every capability's entry point shares: the input it takes (a path, a stream, pages in
// memory), the options every one has (workers, progress, cancellation, broken records), and the
// `{ records, summary }` it resolves to. A stream is written to a temporary file first, so that
// the pages the exact checks need can be read back from it; the file goes when the run ends,
// however it ends.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { optionError, rejectUnknown, ResembleError, throwIfAborted } from '../errors.js';
import type { ReadError } from '../graph/document.js';
import { PageSource, type Inputs, type PageLike } from '../io/pages.js';
import { signalOption, type ReadOptions } from '../io/options.js';
import { init, isInitialized } from '../wasm/loader.js';

export type { Page, PageLike } from '../io/pages.js';

/**
 * What an entry point reads: a path (wget mirror folder, `.warc[.gz]`, `.jsonl[.gz]`, URL list, any
 * file; `-` for standard input), `{ paths }` for several, a readable stream of such a file (Node or
 * web), or pages in memory: an array or (async) iterable of `{ url, html | text | bytes, date?, ip? }`,
 * of strings (plain text, URLs `id:0`, `id:1`…) or of byte arrays.
 */
export type CrawlInput =
  | string
  | { readonly paths: readonly string[] }
  | NodeJS.ReadableStream
  | ReadableStream<Uint8Array>
  | Iterable<PageLike>
  | AsyncIterable<PageLike>;

/** Options every entry point takes. */
export interface EntryOptions {
  /** Threads that sketch while the input is read (default: available cores; 1 runs on the calling thread). The records are the same for any count. */
  workers?: number;
  /** Reader options (kind, scheme, maxRecordBytes, idField…); `onError`, `onWarning` and `signal` are set below. */
  read?: Omit<ReadOptions, 'onError' | 'onWarning' | 'signal' | 'onBytes' | 'pageBytes'>;
  /** Called with each record that could not be used (its location, code and message); it is skipped and the run goes on. Default: counted in the summary only. */
  onError?: (e: ReadError) => void;
  /** Called with a note about a record that is kept but may surprise. Default: ignore. */
  onWarning?: (w: ReadError) => void;
  /** Cancels the run: it rejects with E_ABORTED, its workers stopped and its temporary files removed. */
  signal?: AbortSignal;
}

/** What every entry point resolves to: the records the matching command prints, in its order, and the counts of its summary line. */
export interface EntryResult<R, S> {
  records: R[];
  summary: S;
}

/** Counts every summary holds: what was read. */
export interface ReadSummary {
  /** Pages read. */
  pages: number;
  /** Input bytes read. */
  bytes: number;
  /** Records that could not be used (reported through onError). */
  errors: number;
  /** Records read but not kept, by reason (binary, status, revisit…). */
  skipped: Record<string, number>;
  /** Worker threads used (1: inline). */
  workers: number;
  /** Seconds the run took. */
  seconds: number;
}

/** An input made ready for the readers; `release()` removes what was made for it (a stream's temporary copy). */
export interface TakenInput {
  inputs: Inputs;
  /** How errors name the input (paths, `pages`, `stream`). */
  names: readonly string[];
  /** True when the inputs can be read a second time (paths other than `-`, arrays of pages). */
  repeatable: boolean;
  release(): Promise<void>;
}

function isNodeStream(x: unknown): x is NodeJS.ReadableStream {
  return x !== null && typeof x === 'object' && typeof (x as Readable).pipe === 'function' && typeof (x as Readable).on === 'function';
}

function isWebStream(x: unknown): x is ReadableStream<Uint8Array> {
  return x !== null && typeof x === 'object' && typeof (x as ReadableStream).getReader === 'function';
}

/** Takes an entry point's input and its name; throws E_OPTION (before any work) when it is none of the kinds it may be. */
export function checkInput(input: unknown, where: string): void {
  if (typeof input === 'string') {
    if (input === '') throw optionError(`${where} input`, 'a path, a stream or pages', '');
    return;
  }
  if (input === null || typeof input !== 'object') throw optionError(`${where} input`, 'a path, { paths }, a readable stream, or an array or iterable of pages', input);
  if (isNodeStream(input) || isWebStream(input)) return;
  const paths = (input as { paths?: unknown }).paths;
  if (paths !== undefined && !Array.isArray(input)) {
    if (!Array.isArray(paths) || paths.length === 0 || paths.some((p) => typeof p !== 'string' || p === '')) throw optionError(`${where} input.paths`, 'a non-empty array of paths', paths);
    return;
  }
  if (typeof (input as Iterable<unknown>)[Symbol.iterator] === 'function' || typeof (input as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') return;
  throw optionError(`${where} input`, 'a path, { paths }, a readable stream, or an array or iterable of pages', 'an object');
}

/** Takes a checked input and the signal; compiles the kernels when no `init()` did, and returns the input ready for the readers (a stream is copied to a temporary file first). */
export async function takeInput(input: CrawlInput, signal?: AbortSignal): Promise<TakenInput> {
  // the entry points compile the kernels themselves (a caller's own `await init()` comes first and is kept)
  if (!isInitialized()) await init();
  const none = async () => {};
  if (typeof input === 'string') return { inputs: input, names: [input], repeatable: input !== '-', release: none };
  if (isNodeStream(input) || isWebStream(input)) {
    const dir = await mkdtemp(join(tmpdir(), 'resemble-input-'));
    const release = () => rm(dir, { recursive: true, force: true });
    const path = join(dir, 'input');
    try {
      const source = isWebStream(input) ? Readable.fromWeb(input as import('node:stream/web').ReadableStream<Uint8Array>) : input;
      await pipeline(source as NodeJS.ReadableStream, createWriteStream(path), signal ? { signal } : {});
    } catch (e) {
      await release();
      throwIfAborted(signal);
      throw new ResembleError('E_IO', `cannot read the input stream: ${(e as Error).message}`, { input: 'stream' });
    }
    return { inputs: path, names: ['stream'], repeatable: true, release };
  }
  const paths = (input as { paths?: readonly string[] }).paths;
  if (paths !== undefined && !Array.isArray(input)) return { inputs: [...paths], names: paths, repeatable: !paths.includes('-'), release: none };
  const source = new PageSource(input as Iterable<PageLike> | AsyncIterable<PageLike>);
  return { inputs: source, names: [source.name], repeatable: source.repeatable, release: none };
}

/** Takes entry options and the reader options a stage adds; returns the reader options of the run (errors and warnings to the callbacks, the signal). */
export function readOptionsOf(options: EntryOptions, onError: (e: ReadError) => void): ReadOptions {
  return {
    ...(options.read ?? {}),
    onError,
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/** Takes entry options and the entry's name; throws E_OPTION for a bad shared option (before any work). */
export function checkEntryOptions(options: EntryOptions, where: string): void {
  if (options === null || typeof options !== 'object') throw optionError(`${where} options`, 'an object', options);
  for (const name of ['onError', 'onWarning'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') throw optionError(name, 'a function', options[name]);
  }
  if ((options as { onProgress?: unknown }).onProgress !== undefined && typeof (options as { onProgress?: unknown }).onProgress !== 'function') throw optionError('onProgress', 'a function', (options as { onProgress?: unknown }).onProgress);
  if (options.read !== undefined && (options.read === null || typeof options.read !== 'object')) throw optionError('read', 'reader options', options.read);
  for (const k of ['onError', 'onWarning', 'signal', 'onBytes', 'pageBytes'] as const) {
    if (options.read && (options.read as Record<string, unknown>)[k] !== undefined) throw optionError(`read.${k}`, `no value (give ${k === 'onError' || k === 'onWarning' || k === 'signal' ? k : 'nothing'} beside read)`, 'a value');
  }
  signalOption(options.signal);
  throwIfAborted(options.signal);
}

/** Takes an entry point's input, its options, the option names it knows and its name; checks them before any work (E_OPTION) and returns the options (`{}` for none). */
export function checkEntry<O extends EntryOptions>(input: unknown, options: O | undefined, known: readonly string[], where: string): O {
  checkInput(input, where);
  const o = (options ?? {}) as O;
  checkEntryOptions(o, where);
  rejectUnknown(o, known, where);
  return o;
}

/** What an entry point hands its stage's reader: the inputs, the reader options, the worker count when one was given, and a progress callback that stops at the signal. */
export interface EntryRead<P> {
  inputs: Inputs;
  read: ReadOptions;
  workers: { workers?: number };
  onProgress: (p: P) => void;
}

/** Takes a checked input, the entry options and a stage's reader; runs the reader on the input taken (a stream's copy removed after, however the read ends) and returns what it read with the number of broken records reported through `onError`. */
export async function readEntry<T, P>(input: CrawlInput, options: EntryOptions & { onProgress?: (p: P) => void }, reader: (r: EntryRead<P>) => Promise<T>): Promise<{ read: T; errors: number }> {
  let errors = 0;
  const onError = (e: ReadError) => { errors++; options.onError?.(e); };
  const taken = await takeInput(input, options.signal);
  let read: T;
  try {
    read = await reader({
      inputs: taken.inputs, read: readOptionsOf(options, onError),
      workers: options.workers !== undefined ? { workers: options.workers } : {},
      onProgress: (p) => { throwIfAborted(options.signal); options.onProgress?.(p); },
    });
  } finally {
    await taken.release();
  }
  throwIfAborted(options.signal);
  return { read, errors };
}
