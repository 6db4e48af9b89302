// `sketchCrawl`: one sketch record per page, as `resemble sketch` prints them ({id, url,
// distinctShingles, estimated, values}, values as 16-digit hex), read and sketched as a stream on the worker pool.
// Whole pages by default, as the command; content 'main' sketches each page's own content (its
// site's template left out, the records then come in DocId order once the crawl is read).
import { optionError, rejectUnknown, throwIfAborted } from '../errors.js';
import type { ReadError } from '../graph/document.js';
import { resolveSketchOptions, type SketchOptions } from '../sketch/options.js';
import type { SketchSet } from '../sketch/sketch-set.js';
import type { LearnerOptions } from '../template/learner.js';
import { checkEntryOptions, checkInput, readOptionsOf, takeInput, type CrawlInput, type EntryOptions, type EntryResult, type ReadSummary } from './entry.js';
import { sketchCrawl as streamSketches, type StreamProgress } from './sketch-crawl.js';
import { plain } from '../report/plain.js';

/** Version of the sketch records (`SketchRecord`, `resemble sketch`'s lines; docs/FORMATS.md). Version 1 printed the unrounded `cardinality`. */
export const SKETCH_RECORD_VERSION = 2;

/** One page's sketch, as `resemble sketch` prints it (version `SKETCH_RECORD_VERSION`). */
export interface SketchRecord {
  /** DocId: the page's position in the input. */
  id: number;
  url: string;
  /**
   * Distinct shingles in the page, a whole number: counted exactly for mod / adaptive sketches and
   * for min sketches of pages with fewer than s shingles, else estimated (then `estimated` is true).
   */
  distinctShingles: number;
  /** True when `distinctShingles` is an estimate (the KMV estimate of a min sketch holding s values, rounded to the nearest whole number). */
  estimated: boolean;
  /** The sketch's shingle values as 16-digit hex strings, ascending (left out with `values: false`). */
  values?: string[];
}

/** Options of `sketchCrawl`. */
export interface SketchCrawlOptions extends EntryOptions {
  /** Sketch options (w, s, kind, m, seed, unit, markup; content 'page' by default, as `resemble sketch`). */
  sketch?: SketchOptions;
  /** content 'main': how each site's template is learnt. */
  templates?: LearnerOptions;
  /** Put each sketch's values in its record (default true; `resemble sketch --binary` leaves them out). */
  values?: boolean;
  /** Also return every sketch as one SketchSet (`set`; what `--binary` writes). Default false. */
  keepSet?: boolean;
  /** Input bytes per sketching batch (default 4 MiB). */
  batchBytes?: number;
  /** Called as pages are read and sketched. */
  onProgress?: (p: StreamProgress) => void;
  /** Called with each record as it is made, in input order; `records` then stays empty (nothing held). */
  onRecord?: (record: SketchRecord) => void;
}

/** What `sketchCrawl` resolves to: the records, the read counts, and with `keepSet` the sketches. */
export interface CrawlSketchRecords extends EntryResult<SketchRecord, ReadSummary & { sketched: number }> {
  set?: SketchSet;
}

const KNOWN = ['workers', 'read', 'onError', 'onWarning', 'signal', 'sketch', 'templates', 'values', 'keepSet', 'batchBytes', 'onProgress', 'onRecord'];

/** Takes a 64-bit value; returns it as 16 lowercase hex digits (JSON numbers cannot hold 64 bits). */
export function hex64(v: bigint): string {
  return v.toString(16).padStart(16, '0');
}

// the words of a 64-bit value in a Uint32Array view of its array: the low one first on a little-endian machine
const LOW = new Uint8Array(new BigUint64Array([1n]).buffer)[0] === 1 ? 0 : 1;

// the two hex digits of each byte value, as ASCII codes: HEX_DIGITS[2b], HEX_DIGITS[2b + 1]
const HEX_DIGITS = new Uint8Array(512);
for (let b = 0; b < 256; b++) {
  HEX_DIGITS[2 * b] = '0123456789abcdef'.charCodeAt(b >> 4);
  HEX_DIGITS[2 * b + 1] = '0123456789abcdef'.charCodeAt(b & 15);
}
const ascii = new TextDecoder();
let hexScratch = new Uint8Array(16 * 256);

/** Writes the 8 hex digits of a 32-bit word at `at` of `out`. */
function putWord(out: Uint8Array, at: number, w: number): void {
  for (let k = 3; k >= 0; k--, at += 2) {
    const b = 2 * ((w >>> (8 * k)) & 255);
    out[at] = HEX_DIGITS[b];
    out[at + 1] = HEX_DIGITS[b + 1];
  }
}

/**
 * Takes 64-bit values and a range; returns `hex64` of each value in [from, to), read as two 32-bit
 * words through a view of the array (no BigInt made per value: a page's 128 values are its record).
 * The digits of the whole range are written as bytes and decoded once; each value is a 16-character
 * slice of that one string.
 */
export function hex64Range(values: BigUint64Array, from: number, to: number): string[] {
  const n = Math.max(0, to - from);
  const words = new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
  if (hexScratch.length < 16 * n) hexScratch = new Uint8Array(16 * n);
  const digits = hexScratch;
  for (let i = 0; i < n; i++) {
    const v = from + i;
    putWord(digits, 16 * i, words[2 * v + 1 - LOW]);
    putWord(digits, 16 * i + 8, words[2 * v + LOW]);
  }
  const text = ascii.decode(digits.subarray(0, 16 * n));
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = text.slice(16 * i, 16 * i + 16);
  return out;
}

/** Sketches every page of a crawl: the records `resemble sketch` prints, streamed on the worker pool. */
export async function sketchCrawl(input: CrawlInput, options: SketchCrawlOptions = {}): Promise<CrawlSketchRecords> {
  checkInput(input, 'sketchCrawl');
  options ??= {};
  checkEntryOptions(options, 'sketchCrawl');
  rejectUnknown(options, KNOWN, 'sketchCrawl');
  for (const name of ['values', 'keepSet'] as const) if (options[name] !== undefined && typeof options[name] !== 'boolean') throw optionError(name, 'boolean', options[name]);
  if (options.onRecord !== undefined && typeof options.onRecord !== 'function') throw optionError('onRecord', 'a function', options.onRecord);
  if (options.sketch !== undefined && (options.sketch === null || typeof options.sketch !== 'object')) throw optionError('sketch', 'sketch options', options.sketch);
  const sketch = { ...(options.sketch ?? {}) };
  const params = resolveSketchOptions(sketch);
  const main = params.content === 'main';
  if (options.templates !== undefined && !main) throw optionError('templates', "no value unless sketch content 'main'", 'options');
  const withValues = options.values ?? true, keepSet = options.keepSet ?? false;
  const started = performance.now();
  const records: SketchRecord[] = [];
  const emit = (r: SketchRecord) => { if (options.onRecord) options.onRecord(r); else records.push(r); };
  // made plain as it is made: whole numbers and hex strings only
  const recordOf = (set: SketchSet, i: number, id: number, url: string): SketchRecord => {
    const count = set.offsets[i + 1] - set.offsets[i];
    const estimated = set.params.kind === 'min' && count >= set.params.s;
    const r: SketchRecord = { id, url, distinctShingles: estimated ? Math.round(set.cardinality[i]) : set.cardinality[i], estimated };
    if (withValues) r.values = hex64Range(set.values, set.offsets[i], set.offsets[i + 1]);
    return r;
  };
  let errors = 0;
  const onError = (e: ReadError) => { errors++; options.onError?.(e); };
  const taken = await takeInput(input, options.signal);
  try {
    const urls: string[] = [];
    const crawl = await streamSketches(taken.inputs, {
      sketch, read: { ...readOptionsOf(options, onError), links: false },
      ...(options.workers !== undefined ? { workers: options.workers } : {}),
      ...(options.batchBytes !== undefined ? { batchBytes: options.batchBytes } : {}),
      ...(options.templates !== undefined ? { templates: options.templates } : {}),
      // content 'main' releases pages by site: the records are made from the whole set at the end
      retain: keepSet || main,
      onProgress: (p) => { throwIfAborted(options.signal); options.onProgress?.(p); },
      ...(main ? {} : {
        // pages' URLs up to the batch being made into records (dropped once made)
        onBatch: (docs: readonly { url: string }[]) => { for (const d of docs) urls.push(d.url); },
        onSketched: (set: SketchSet, first: number) => {
          const batchUrls = urls.splice(0, set.size);
          for (let i = 0; i < set.size; i++) emit(recordOf(set, i, first + i, batchUrls[i]));
        },
      }),
    });
    throwIfAborted(options.signal);
    if (main) for (let d = 0; d < crawl.pages; d++) emit(recordOf(crawl.set, d, d, crawl.urls[d]));
    for (const e of crawl.sketchErrors) onError({ source: crawl.sources[e.index], location: crawl.sources[e.index], code: 'E_INPUT', message: e.message });
    const summary = { pages: crawl.pages, bytes: crawl.bytes, errors, skipped: { ...crawl.skipped }, workers: crawl.workers, seconds: (performance.now() - started) / 1000, sketched: crawl.pages - crawl.sketchErrors.length };
    return { records, summary, ...(keepSet ? { set: crawl.set } : {}) };
  } finally {
    await taken.release();
  }
}
