// Exact values for the pairs the estimates cannot settle: only the pages of those pairs are read
// back (each from its record in the input, or from the spill file; or the input is read again) and
// shingled in full (their shingle sets are all that is held), and resemblance and containment are
// computed over the full sets, as the slow reference does.
import { closeSync, openSync } from 'node:fs';
import type { ReadError } from '../graph/document.js';
import { intOption, optionError } from '../errors.js';
import { utf8Bytes } from '../graph/document.js';
import { readCrawl } from '../io/crawl.js';
import type { Inputs } from '../io/pages.js';
import type { ReadOptions } from '../io/options.js';
import { HI, LO, words } from '../sketch/columns.js';
import { shingleSet } from '../sketch/exact.js';
import { resolveSketchOptions, type SketchOptions } from '../sketch/options.js';
import { sketchMany } from '../sketch/sketch.js';
import { tablesOfPage, tablesOfPages, type CrawlTemplates } from '../template/crawl-templates.js';
import { createPool, type Pool } from '../stream/pool-node.js';
import type { Spill } from '../stream/spill.js';
import { FileBlocks } from '../io/file-blocks.js';
import { isInitialized, withArena } from '../wasm/instance.js';
import { pagesOfLines, plainReadOptions, RecordReader, type LineJob } from '../io/read-back.js';
import type { SketchSet } from '../sketch/sketch-set.js';
import { changeOf, NO_RECORD, OWN_FILE, originOf, type CrawlRecords } from '../stream/records.js';

/** Exact resemblance and containments of pairs, in the order given. */
export interface ExactPairs {
  resemblance: Float64Array;
  containmentAB: Float64Array;
  containmentBA: Float64Array;
  /** Pages shingled in full, and documents read to reach them. */
  pages: number;
  read: number;
  /** Pages read back from their records that are not the pages the first pass read (the input changed, see `records`): no exact value. */
  changed: number;
}

/** Options of `exactPairs`. */
export interface ExactPairsOptions {
  /** The options the sketches were made with (width, unit, markup and seed decide the shingles). */
  sketch?: SketchOptions;
  /** Reader options, as for the first pass (the DocIds must come out the same). */
  read?: ReadOptions;
  /** Called as pages are read: pages shingled so far and in all. */
  onProgress?: (done: number, total: number) => void;
  /** The pages written by the first pass: read back one by one instead of reading the input again. */
  spill?: Spill;
  /**
   * Where the pages' records lie in the input (sketchCrawl's `records`): those pages are read back
   * from there, one record each (the others from `spill`). A page that does not read back as it
   * was (its line or record no longer framed the same, its size or, with `fingerprints`, its
   * bytes different) gets no exact value, like a page that cannot be read, and is reported
   * through `read.onWarning`, once per input file.
   */
  records?: CrawlRecords;
  /** The first pass's raw-bytes fingerprint of each page (`SketchSet.rawFp`), to check the pages read back from `records`. */
  fingerprints?: ArrayLike<bigint>;
  /** content 'main': the tables the pages were sketched against (their content shingles are what is compared). */
  templates?: CrawlTemplates;
  /** Threads that shingle pages read back from `spill` (default 1: on the calling thread; the pool's size with `pool`). */
  workers?: number;
  /** A worker pool to shingle the pages read back from `spill` on (the caller closes it); default: one of `workers` threads started here. */
  pool?: Pool;
  /** Page bytes shingled per batch from `spill` (default 4 MiB). */
  windowBytes?: number;
  /** Bytes of shingle sets kept between batches (default 64 MiB); a set evicted before its pair is filled is made again. */
  cacheBytes?: number;
}

/** Shingle sets held at once while pairs are checked from the spill file. */
const CACHE_BYTES = 64 << 20;

/** |x ∩ y| of two ascending distinct u64 arrays, compared as 32-bit words. */
export function intersectionCount(x: BigUint64Array, y: BigUint64Array): number {
  const a = words(x), b = words(y);
  let i = 0, j = 0, n = 0;
  const na = x.length, nb = y.length;
  while (i < na && j < nb) {
    const ah = a[2 * i + HI], bh = b[2 * j + HI];
    if (ah < bh) i++;
    else if (ah > bh) j++;
    else {
      const al = a[2 * i + LO], bl = b[2 * j + LO];
      if (al < bl) i++;
      else if (al > bl) j++;
      else { n++; i++; j++; }
    }
  }
  return n;
}

/**
 * |xs[q] ∩ ys[q]| of many pairs of ascending distinct u64 arrays at once: each distinct array is
 * copied to WebAssembly memory once and the pairs are merged on the MIN_s kernel with s above any
 * length (its count of all shared values is then the whole intersection; 5 µs → about 1 µs a pair
 * of 300-value sets), in calls of at most about `copyValues` values. `intersectionCount` on each
 * pair where the kernels are not initialized.
 */
export function intersectionCounts(xs: readonly BigUint64Array[], ys: readonly BigUint64Array[], copyValues = COPY_VALUES): Uint32Array {
  const n = xs.length;
  const out = new Uint32Array(n);
  if (n === 0) return out;
  if (!isInitialized()) {
    for (let q = 0; q < n; q++) out[q] = intersectionCount(xs[q], ys[q]);
    return out;
  }
  const rows = new Map<BigUint64Array, number>(), list: BigUint64Array[] = [];
  const ra = new Uint32Array(n), rb = new Uint32Array(n);
  // pairs taken while their distinct arrays hold under copyValues (WebAssembly memory never shrinks)
  for (let q0 = 0; q0 < n;) {
    rows.clear();
    list.length = 0;
    let total = 0, q = q0;
    const row = (v: BigUint64Array) => {
      let r = rows.get(v);
      if (r === undefined) { rows.set(v, (r = list.length)); list.push(v); total += v.length; }
      return r;
    };
    for (; q < n && (q === q0 || total < copyValues); q++) { ra[q] = row(xs[q]); rb[q] = row(ys[q]); }
    const m = q - q0;
    withArena((mem, k) => {
      // 8 bytes of padding: the kernel's two merges at a time read one value past a finished row
      const values = mem.alloc(total * 8 + 8), offsets = mem.alloc((list.length + 1) * 4);
      const pa = mem.alloc(m * 4), pb = mem.alloc(m * 4), res = mem.alloc(m * 24);
      const v0 = values >>> 3, o0 = offsets >>> 2;
      let at = 0;
      for (let r = 0; r < list.length; r++) {
        mem.u32[o0 + r] = at;
        mem.u64.set(list[r], v0 + at);
        at += list[r].length;
      }
      mem.u32[o0 + list.length] = at;
      mem.u32.set(ra.subarray(q0, q), pa >>> 2);
      mem.u32.set(rb.subarray(q0, q), pb >>> 2);
      k.es_min_pairs(values, offsets, pa, pb, m, 0x7fffffff, res);
      const u32 = mem.u32, r0 = res >>> 2;
      for (let j = 0; j < m; j++) out[q0 + j] = u32[r0 + 6 * j + 2];
    });
    q0 = q;
  }
  return out;
}

/** Shingle values copied to WebAssembly memory per kernel call of intersectionCounts (8 MiB). */
const COPY_VALUES = 1 << 20;

function shingleOptionsOf(sketch: SketchOptions = {}): SketchOptions {
  const { w, unit, markup, seed } = sketch;
  return { w, unit, markup, seed };
}

/**
 * Takes the sketch options and the crawl's templates; returns page d's full shingle set as its
 * sketches saw it: every shingle of the page, or in content mode every shingle of its content
 * (a MOD_1 sketch against the page's own table keeps them all).
 */
function fullSetOf(sketch: SketchOptions = {}, templates?: CrawlTemplates): (bytes: Uint8Array, d: number) => BigUint64Array {
  if (resolveSketchOptions(sketch).content !== 'main') {
    const o = shingleOptionsOf(sketch);
    return (bytes) => shingleSet(bytes, o);
  }
  const { w, seed, linkDensity, minContent } = sketch;
  const o: SketchOptions = { w, seed, linkDensity, minContent, content: 'main', kind: 'mod', m: 1 };
  return (bytes, d) => {
    const set = sketchMany([bytes], templates ? { ...o, templates: tablesOfPage(templates, d) } : o);
    return set.values.slice();
  };
}

/** Exact values of one pair of shingle sets into out[i]; NaN when a page could not be read back. */
function fill(out: ExactPairs, i: number, x: BigUint64Array | undefined, y: BigUint64Array | undefined): void {
  if (!x || !y) { out.resemblance[i] = out.containmentAB[i] = out.containmentBA[i] = NaN; return; }
  fillShared(out, i, x, y, intersectionCount(x, y));
}

/** Exact values of one pair of shingle sets with `shared` values in common into out[i]. */
function fillShared(out: ExactPairs, i: number, x: BigUint64Array, y: BigUint64Array, shared: number): void {
  const union = x.length + y.length - shared;
  out.resemblance[i] = union > 0 ? shared / union : 0;
  out.containmentAB[i] = x.length > 0 ? shared / x.length : 0;
  out.containmentBA[i] = y.length > 0 ? shared / y.length : 0;
}

/**
 * Takes the sketch options and the crawl's templates; returns a function that shingles a batch of
 * pages in full (as `fullSetOf` does each page) with one sketchMany call, on the pool when given:
 * a MOD_1 sketch keeps every distinct shingle value, ascending, which is the shingle set. The sets
 * are views into one array of `bytes` bytes (an array per page cost 2–13 µs each to allocate and
 * collect: 10 s of the reading thread for 767,000 pages).
 */
function fullSetsOf(sketch: SketchOptions = {}, templates?: CrawlTemplates): (pages: Uint8Array[], docs: number[], pool?: Pool, lines?: LineJob) => Promise<FullSets> {
  const main = resolveSketchOptions(sketch).content === 'main';
  const { w, seed, linkDensity, minContent, unit, markup } = sketch;
  const base: SketchOptions = main ? { w, seed, linkDensity, minContent, content: 'main', kind: 'mod', m: 1 } : { w, unit, markup, seed, kind: 'mod', m: 1 };
  return async (pages, docs, pool, lines) => {
    const options = main && templates ? { ...base, templates: tablesOfPages(templates, docs) } : base;
    const failed = new Map<number, string>();
    let set: SketchSet;
    if (pool) {
      set = await pool.sketchMany(pages, lines ? { ...options, lines } : options);
      // every document is bytes: the set's errors are lines that no longer hold their pages
      for (const e of set.errors) failed.set(e.index, e.message);
    } else {
      let docsIn: (Uint8Array | null)[] = pages;
      if (lines) {
        const made = pagesOfLines(pages, lines);
        docsIn = made.docs;
        for (const e of made.errors) failed.set(e.index, e.message);
      }
      set = sketchMany(docsIn as Uint8Array[], options);
    }
    return { sets: docs.map((_, k) => set.values.subarray(set.offsets[k], set.offsets[k + 1])), rawFp: set.rawFp, bytes: set.values.byteLength, failed };
  };
}

/** A window's shingle sets (views into one array of `bytes` bytes), raw fingerprints, and the pages whose lines no longer hold them (index → why). */
interface FullSets { sets: BigUint64Array[]; rawFp: BigUint64Array; bytes: number; failed: Map<number, string> }

/**
 * Takes the input, the pairs (DocIds a[i], b[i]) and options; shingles the pages of those pairs in
 * full and returns the exact values per pair. With `records` or `spill`, just those pages are read
 * back (from their records in the input, else from the spill file) and shingled in batches (on
 * `workers` threads); otherwise the input is read again up to the last page needed.
 */
export async function exactPairs(input: Inputs, a: Uint32Array, b: Uint32Array, options: ExactPairsOptions = {}): Promise<ExactPairs> {
  if (a.length !== b.length) throw optionError('b', `${a.length} DocIds`, b.length);
  const n = a.length;
  const out: ExactPairs = { resemblance: new Float64Array(n), containmentAB: new Float64Array(n), containmentBA: new Float64Array(n), pages: 0, read: 0, changed: 0 };
  if (n === 0) return out;
  if (options.spill || options.records) {
    const pages = new PagesBack(options.spill, options.records, options.fingerprints, options.read);
    try {
      return await exactFromPages(pages, a, b, out, options);
    } finally {
      pages.close();
    }
  }
  const fullSet = fullSetOf(options.sketch, options.templates);
  const needed = new Map<number, BigUint64Array | undefined>();
  for (let i = 0; i < n; i++) { needed.set(a[i], undefined); needed.set(b[i], undefined); }
  let done = 0, last = 0;
  for (const d of needed.keys()) last = Math.max(last, d);
  // Errors and skips were reported by the first pass.
  const read = { ...(options.read ?? {}), links: false, onBytes: undefined, onError: undefined, onWarning: undefined, onSkip: undefined };
  let id = 0;
  for await (const doc of readCrawl(input, read)) {
    if (needed.has(id)) {
      needed.set(id, fullSet(utf8Bytes(doc), id));
      done++;
      options.onProgress?.(done, needed.size);
    }
    if (id++ === last) break;
  }
  out.read = id;
  out.pages = done;
  // A page missing on the second read (the input changed) keeps no exact value: NaN joins nothing.
  for (let i = 0; i < n; i++) fill(out, i, needed.get(a[i]), needed.get(b[i]));
  return out;
}

/** Page bytes shingled in one batch. */
const WINDOW_BYTES = 4 << 20;

/** How the pages read back from one input file (or from files of their own) went. */
interface FileReport {
  asked: number;
  bad: number;
  /** Where the first page that was not as it was is, and why. */
  first?: { location: string; why: string };
  /** How the file differs now from when it was first read (size, modification time). */
  change?: string;
}

/**
 * The pages the exact checks read back: from their records in the input, checked to be the pages
 * the first pass read (the record frames as it did, the page has its size, and once shingled its
 * raw fingerprint), else from the spill file.
 */
class PagesBack {
  private readonly reader: RecordReader | undefined;
  private readonly fd: number | undefined;
  private readonly reports = new Map<number, FileReport>();
  private readonly blocks = new FileBlocks();
  /** Pages read back from records that were not as they were. */
  changed = 0;

  constructor(private readonly spill: Spill | undefined, private readonly records: CrawlRecords | undefined, private readonly fingerprints: ArrayLike<bigint> | undefined, read: ReadOptions = {}) {
    this.reader = records ? new RecordReader(read) : undefined;
    this.fd = spill ? openSync(spill.path, 'r') : undefined;
  }

  /** Where the pages' bytes go (default: a new buffer each); a window's pages may be views of one buffer. */
  set pageBytes(alloc: (n: number) => Uint8Array) {
    this.alloc = alloc;
    if (this.reader) this.reader.pageBytes = alloc;
  }
  get pageBytes(): (n: number) => Uint8Array {
    return this.alloc;
  }
  private alloc: (n: number) => Uint8Array = (n) => new Uint8Array(n);

  /** True when page d is read back from its record in the input. */
  fromRecord(d: number): boolean {
    return this.records !== undefined && (this.records.file[d] ?? NO_RECORD) !== NO_RECORD;
  }

  private report(d: number): FileReport {
    // pages of their own files are reported together
    const f = Math.max(this.records!.file[d], OWN_FILE);
    let r = this.reports.get(f);
    if (!r) {
      r = { asked: 0, bad: 0 };
      if (f >= 0) r.change = changeOf(this.records!.files[f]);
      this.reports.set(f, r);
    }
    return r;
  }

  private bad(d: number, why: string): undefined {
    const r = this.report(d), origin = originOf(this.records!, d)!;
    r.bad++;
    this.changed++;
    r.first ??= { location: origin.kind === 'file' ? origin.path : `offset ${origin.offset}`, why };
    return undefined;
  }

  /** Takes a DocId (`again`: read before); returns the page's UTF-8 bytes, or undefined when it cannot be read back as it was. */
  async page(d: number, again = false): Promise<Uint8Array | undefined> {
    if (this.fromRecord(d)) {
      if (!again) this.report(d).asked++;
      const doc = await this.reader!.read(originOf(this.records!, d)!);
      if (typeof doc === 'string') return this.bad(d, doc);
      if (doc.bytes.length !== this.records!.sizes[d]) return this.bad(d, `a page of ${doc.bytes.length} bytes, was ${this.records!.sizes[d]}`);
      return utf8Bytes(doc);
    }
    const len = this.spill?.length[d];
    if (this.fd === undefined || len === undefined || !(len >= 0)) return undefined;
    const got = this.blocks.read(this.fd, this.spill!.offset[d], len);
    if (got.length !== len) return undefined;
    const page = this.pageBytes(len);
    page.set(got);
    return page;
  }

  /**
   * Takes a DocId; returns the JSONL line of its record, copied to `pageBytes` (its page is made
   * where it is sketched, see `pagesOfLines`), undefined when it is no longer the line it was, or
   * null when the page's record is not a JSONL line.
   */
  line(d: number): Uint8Array | undefined | null {
    if (!this.fromRecord(d)) return null;
    const origin = originOf(this.records!, d)!;
    if (origin.kind !== 'jsonl') return null;
    this.report(d).asked++;
    const line = this.reader!.line(origin);
    if (typeof line === 'string') return this.bad(d, line);
    const copy = this.alloc(line.length);
    copy.set(line);
    return copy;
  }

  /** Takes a DocId read back as a line (`line`); returns the line's offset and the size its page had. */
  lineOf(d: number): { offset: number; size: number } {
    return { offset: this.records!.offset[d], size: this.records!.sizes[d] };
  }

  /** Takes a DocId whose line did not make the page it made first, and why; reports it. */
  notAsItWas(d: number, why: string): void {
    this.bad(d, why);
  }

  /** Takes a DocId and the raw fingerprint of its page as read back; returns whether it is the page the first pass read (reported when not). */
  same(d: number, rawFp: bigint): boolean {
    if (!this.fromRecord(d) || !this.fingerprints || this.fingerprints[d] === rawFp) return true;
    this.bad(d, 'its bytes differ from those read first (raw fingerprint)');
    return false;
  }

  /** Reports each input file that changed since it was read, or whose pages did not read back as they were, through onWarning. */
  warn(onWarning: ((w: ReadError) => void) | undefined): void {
    if (!onWarning) return;
    const checked = this.fingerprints ? 'by their bytes' : 'by their framing and size';
    for (const [f, r] of this.reports) {
      if (r.bad === 0 && r.change === undefined) continue;
      const path = f >= 0 ? this.records!.files[f].path : r.first!.location;
      const what = f >= 0 ? 'read back from it' : 'read back from their files';
      const change = r.change ? `changed since it was read (${r.change})` : '';
      const message = r.bad === 0
        ? `${change}, but the ${r.asked} pages ${what} for exact checks are as they were (checked ${checked})`
        : `${change ? `${change}: ` : ''}${r.bad} of the ${r.asked} pages ${what} for exact checks are not as they were (the first: ${r.first!.why}); pairs with them are not joined by exact resemblance`;
      onWarning({ source: path, location: r.first?.location ?? path, code: 'W_CHANGED', message });
    }
  }

  close(): void {
    this.reader?.close();
    this.blocks.clear();
    if (this.fd !== undefined) closeSync(this.fd);
  }
}

/**
 * The pairs from pages read back alone (from their records in the input, or the spill file): pairs
 * in order of their first page; the pages they need that are not cached are read in windows of
 * `windowBytes` and shingled a window per sketchMany call (up to two windows per worker in
 * flight); shingle sets stay in a cache of `cacheBytes` (least recently scheduled out), so memory
 * does not follow the pairs.
 */
async function exactFromPages(back: PagesBack, a: Uint32Array, b: Uint32Array, out: ExactPairs, options: ExactPairsOptions): Promise<ExactPairs> {
  const n = a.length;
  const fullSets = fullSetsOf(options.sketch, options.templates);
  const workers = options.pool ? options.pool.size : intOption('workers', options.workers, 1, 1, 256);
  const windowBytes = intOption('windowBytes', options.windowBytes, WINDOW_BYTES, 1, 1 << 30);
  const cacheBytes = intOption('cacheBytes', options.cacheBytes, CACHE_BYTES, 0, 2 ** 40);
  // 1: needed, 2: read (or tried: a page that cannot be read back counts as read), 3: cannot be read back as it was
  let top = 0;
  for (let i = 0; i < n; i++) top = Math.max(top, a[i], b[i]);
  const state = new Uint8Array(top + 1);
  let needed = 0, done = 0, seen = 0;
  for (let i = 0; i < n; i++) for (const d of [a[i], b[i]]) if (state[d] === 0) { state[d] = 1; needed++; }
  const owned = !options.pool && workers > 1 ? createPool({ workers }) : undefined;
  const pool = options.pool ?? owned;
  // Sets cached by DocId, least recently used first. A set is a view into its window's array, which
  // lives while one of its sets is cached: the bytes counted are those of the windows still held.
  const cache = new Map<number, { set: BigUint64Array; window: { bytes: number; live: number } }>();
  let cached = 0;
  const scheduled = new Set<number>();
  // Pages read back are views into one buffer of about a window (a buffer each cost an allocation
  // and a collection per page); a buffer lives while a page of it is being shingled.
  const slabBytes = Math.min(windowBytes, 64 << 20) + (64 << 10);
  let slab = new Uint8Array(0), used = 0;
  back.pageBytes = (len) => {
    if (used + len > slab.length) { slab = new Uint8Array(Math.max(len, slabBytes)); used = 0; }
    return slab.subarray(used, (used += len));
  };
  const touch = (d: number) => { const x = cache.get(d); if (x) { cache.delete(d); cache.set(d, x); } };
  const get = async (d: number): Promise<BigUint64Array | undefined> => {
    const hit = cache.get(d)?.set;
    if (hit || state[d] !== 2) return hit;
    // Evicted before its pair was filled (a window larger than the cache): shingled again.
    const page = await back.page(d, true);
    if (!page) { state[d] = 3; return undefined; }
    const { sets, rawFp } = await fullSets([page], [d]);
    if (!back.same(d, rawFp[0])) { state[d] = 3; return undefined; }
    return sets[0];
  };
  try {
    const order = Uint32Array.from({ length: n }, (_, i) => i).sort((x, y) => a[x] - a[y] || b[x] - b[y]);
    const windows: { from: number; to: number; docs: number[]; done: Promise<FullSets> }[] = [];
    const read = plainReadOptions(options.read);
    let i = 0;
    const inflight = pool ? 2 * workers : 1;
    while (i < n || windows.length > 0) {
      while (i < n && windows.length < inflight) {
        const from = i, docs: number[] = [], pages: Uint8Array[] = [], offsets: number[] = [], sizes: number[] = [];
        let size = 0, lines = 0;
        while (i < n && size < windowBytes) {
          for (const d of [a[order[i]], b[order[i]]]) {
            if (cache.has(d)) { touch(d); continue; }
            if (scheduled.has(d) || state[d] >= 2) continue;
            // a JSONL line is made its page where it is sketched (on the workers), any other record here
            let page = back.line(d), line = NaN, was = NaN;
            if (page === null) page = await back.page(d);
            else if (page) { ({ offset: line, size: was } = back.lineOf(d)); lines++; }
            state[d] = page ? 2 : 3;
            seen++;
            if (!page) continue;
            scheduled.add(d); docs.push(d); pages.push(page); offsets.push(line); sizes.push(was); size += page.length;
          }
          i++;
        }
        const job = fullSets(pages, docs, pool, lines > 0 ? { read, offsets: Float64Array.from(offsets), sizes: Float64Array.from(sizes) } : undefined);
        job.catch(() => undefined);
        windows.push({ from, to: i, docs, done: job });
      }
      const w = windows.shift()!;
      const { sets, rawFp, bytes, failed } = await w.done;
      const window = { bytes, live: 0 };
      w.docs.forEach((d, k) => {
        scheduled.delete(d);
        const why = failed.get(k);
        if (why !== undefined) { back.notAsItWas(d, why); state[d] = 3; return; }
        if (!back.same(d, rawFp[k])) { state[d] = 3; return; }
        cache.set(d, { set: sets[k], window });
        if (window.live++ === 0) cached += bytes;
        done++;
        options.onProgress?.(done, needed);
      });
      // the window's pairs merged in one kernel call
      const xs: BigUint64Array[] = [], ys: BigUint64Array[] = [], at: number[] = [];
      for (let k = w.from; k < w.to; k++) {
        const p = order[k];
        const x = cache.get(a[p])?.set ?? await get(a[p]), y = cache.get(b[p])?.set ?? await get(b[p]);
        if (x && y) { xs.push(x); ys.push(y); at.push(p); } else fill(out, p, x, y);
      }
      const shared = intersectionCounts(xs, ys);
      for (let j = 0; j < at.length; j++) fillShared(out, at[j], xs[j], ys[j], shared[j]);
      for (const [d, v] of cache) {
        if (cached <= cacheBytes) break;
        cache.delete(d);
        if (--v.window.live === 0) cached -= v.window.bytes;
      }
    }
  } finally {
    await owned?.close();
  }
  back.warn(options.read?.onWarning);
  out.read = seen;
  out.pages = done;
  out.changed = back.changed;
  return out;
}
