// Sketches kept on disk instead of in the heap, for crawls whose sketches do not fit in memory
// (the DuckDB engine's path). Each batch's rows are appended to one file as the batch comes out of
// the worker pool; what stays in memory is the per-document columns (row lengths, cardinalities,
// fingerprints: about 50 bytes a page against about 1 KB of values with MIN_128). Rows are then
// read back either in one sequential pass (to count values, or to write the candidate keys) or one
// by one for the estimates of candidate pairs, through a cache of file blocks.
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, write } from 'node:fs';
import { join } from 'node:path';
import { ResembleError } from '../errors.js';
import type { PairEstimator } from '../cluster/columns.js';
import { estimateRows, type Row } from '../cluster/estimate.js';
import type { SketchParams } from '../sketch/options.js';
import { templateShareOf, tooLittleContentOf, type SketchDocuments, type SketchError, type SketchSet } from '../sketch/sketch-set.js';

/** Bytes of the write chunks: rows are copied into one and written whole through the I/O pool. */
const CHUNK = 4 << 20;
/** Bytes written but not on disk past which `add` asks the reading to wait. */
const PENDING = 64 << 20;
/** Bytes of a cached block for reads one row at a time, and blocks kept (64 MiB). */
const BLOCK = 1 << 15;
const BLOCKS = 2048;
/** Bytes read at once by a sequential pass. */
const PASS = 16 << 20;

/**
 * Folders of stores not yet removed: removed when the process exits, for results whose `close()`
 * was never called (a library user's forgotten one would otherwise leave gigabytes behind).
 */
const unremoved = new Set<string>();
let hooked = false;
function track(folder: string): void {
  unremoved.add(folder);
  if (hooked) return;
  hooked = true;
  process.once('exit', () => { for (const f of unremoved) rmSync(f, { recursive: true, force: true }); });
}
function untrack(folder: string): void {
  unremoved.delete(folder);
}

function grown<A extends Float64Array | Uint32Array | Uint8Array | BigUint64Array>(a: A, need: number): A {
  if (need <= a.length) return a;
  let c = Math.max(1024, a.length);
  while (c < need) c *= 2;
  const b = new (a.constructor as new (n: number) => A)(c);
  b.set(a as never);
  return b;
}

/**
 * Writes sketch rows to a file in a new folder under `dir` as batches come, and keeps the
 * per-document columns by DocId (batches may come in any order: content mode releases pages by site).
 */
export class SketchStore {
  private readonly folder: string;
  private readonly path: string;
  private fd: number;
  private writing = true;
  /** Values written (the file's length in values). */
  private at = 0;
  private chunk = new Uint8Array(CHUNK);
  private used = 0;
  private chunkAt = 0;
  private pending = 0;
  private failed?: Error;
  private readonly waiting: Array<() => void> = [];
  private readonly idle: Array<() => void> = [];
  private n = 0;
  private rows = 0;
  private length = new Uint32Array(1024);
  private position = new Float64Array(1024);
  private fileOrder = new Uint32Array(1024);
  private cardinality = new Float64Array(1024);
  private tokens = new Uint32Array(1024);
  private modulusLog2 = new Uint8Array(1024);
  private rawFp = new BigUint64Array(1024);
  private lexicalFp = new BigUint64Array(1024);
  private shingleFp = new BigUint64Array(1024);
  private templateTokens?: Uint32Array;

  constructor(dir: string, readonly params: SketchParams) {
    try {
      mkdirSync(dir, { recursive: true });
      this.folder = mkdtempSync(join(dir, 'resemble-sketches-'));
    } catch (e) {
      throw new ResembleError('E_IO', `cannot make a temporary folder in ${dir}: ${(e as Error).message}`, { path: dir });
    }
    track(this.folder);
    this.path = join(this.folder, 'rows.bin');
    this.fd = openSync(this.path, 'w+');
    if (params.content === 'main') this.templateTokens = new Uint32Array(1024);
  }

  private settle(): void {
    while (this.waiting.length && (this.pending <= PENDING / 2 || this.failed)) this.waiting.shift()!();
    while (this.idle.length && this.pending === 0) this.idle.shift()!();
  }

  private put(bytes: Uint8Array, position: number): void {
    this.pending += bytes.length;
    const done = (e: Error | null, n: number) => {
      if (!e && n < bytes.length) { write(this.fd, bytes, n, bytes.length - n, position + n, done); return; }
      if (e) this.failed ??= e;
      this.pending -= bytes.length;
      this.settle();
    };
    write(this.fd, bytes, 0, bytes.length, position, done);
  }

  private flushChunk(): void {
    if (this.used === 0) return;
    this.put(this.chunk.subarray(0, this.used), this.chunkAt);
    this.chunk = new Uint8Array(CHUNK);
    this.used = 0;
  }

  private check(): void {
    if (this.failed) throw new ResembleError('E_IO', `cannot write the sketch file ${this.path}: ${this.failed.message}`, { path: this.path });
  }

  /** Appends a batch: row k of `set` is the sketch of DocId ids[k]. Resolves when the writes pending are few enough. */
  add(set: SketchSet, ids: Uint32Array): Promise<void> | void {
    this.check();
    const k = set.size;
    let top = this.n;
    for (let i = 0; i < k; i++) top = Math.max(top, ids[i] + 1);
    if (top > this.length.length) {
      this.length = grown(this.length, top); this.position = grown(this.position, top);
      this.cardinality = grown(this.cardinality, top); this.tokens = grown(this.tokens, top); this.modulusLog2 = grown(this.modulusLog2, top);
      this.rawFp = grown(this.rawFp, top); this.lexicalFp = grown(this.lexicalFp, top); this.shingleFp = grown(this.shingleFp, top);
      if (this.templateTokens) this.templateTokens = grown(this.templateTokens, top);
    }
    this.n = top;
    this.fileOrder = grown(this.fileOrder, this.rows + k);
    const off = set.offsets;
    for (let i = 0; i < k; i++) {
      const d = ids[i];
      this.length[d] = off[i + 1] - off[i];
      this.position[d] = this.at + off[i];
      this.cardinality[d] = set.cardinality[i]; this.tokens[d] = set.tokens[i]; this.modulusLog2[d] = set.modulusLog2[i];
      this.rawFp[d] = set.rawFp[i]; this.lexicalFp[d] = set.lexicalFp[i]; this.shingleFp[d] = set.shingleFp[i];
      if (this.templateTokens) this.templateTokens[d] = set.templateTokens![i];
      this.fileOrder[this.rows + i] = d;
    }
    this.rows += k;
    const bytes = new Uint8Array(set.values.buffer, set.values.byteOffset, off[k] * 8);
    let from = 0;
    while (from < bytes.length) {
      if (this.used === CHUNK) this.flushChunk();
      if (this.used === 0) this.chunkAt = this.at * 8 + from;
      const m = Math.min(CHUNK - this.used, bytes.length - from);
      this.chunk.set(bytes.subarray(from, from + m), this.used);
      this.used += m; from += m;
    }
    this.at += off[k];
    if (this.pending > PENDING) return new Promise<void>((resolve) => this.waiting.push(resolve)).then(() => this.check());
  }

  /**
   * Waits for every write; returns the sketches of DocIds 0..n−1 (`n`, the documents read: those
   * never added have empty rows) with their sketching errors. The store's file now belongs to them.
   */
  async finish(n: number, errors: SketchError[]): Promise<SpilledSketches> {
    this.flushChunk();
    if (this.pending > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    this.check();
    if (n < this.n) throw new ResembleError('E_INPUT', `SketchStore.finish: ${this.n} documents added, ${n} given`);
    const size = (a: Float64Array | Uint32Array | Uint8Array | BigUint64Array) => grown(a, n).subarray(0, n);
    const length = size(this.length) as Uint32Array;
    const offsets = new Uint32Array(n + 1);
    let total = 0;
    for (let d = 0; d < n; d++) {
      total += length[d];
      if (total > 0xffffffff) throw new ResembleError('E_INPUT', `more than 2^32 sketch values (${n} documents): sketch fewer documents at a time`);
      offsets[d + 1] = total;
    }
    const spilled = new SpilledSketches(this.params, {
      folder: this.folder, path: this.path, fd: this.fd, offsets, position: size(this.position) as Float64Array,
      fileOrder: this.fileOrder.slice(0, this.rows), cardinality: size(this.cardinality) as Float64Array,
      tokens: size(this.tokens) as Uint32Array, modulusLog2: size(this.modulusLog2) as Uint8Array, rawFp: size(this.rawFp) as BigUint64Array,
      lexicalFp: size(this.lexicalFp) as BigUint64Array, shingleFp: size(this.shingleFp) as BigUint64Array,
      templateTokens: this.templateTokens ? size(this.templateTokens) as Uint32Array : undefined,
    }, errors);
    this.writing = false;
    return spilled;
  }

  /** Closes and removes the file (after a failure; `finish` hands the file over instead). */
  remove(): void {
    if (this.writing) { closeSync(this.fd); this.writing = false; }
    rmSync(this.folder, { recursive: true, force: true });
    untrack(this.folder);
  }
}

interface SpilledColumns {
  folder: string;
  path: string;
  fd: number;
  offsets: Uint32Array;
  position: Float64Array;
  fileOrder: Uint32Array;
  cardinality: Float64Array;
  tokens: Uint32Array;
  modulusLog2: Uint8Array;
  rawFp: BigUint64Array;
  lexicalFp: BigUint64Array;
  shingleFp: BigUint64Array;
  templateTokens?: Uint32Array;
}

/** Reads rows from the file through a cache of BLOCK-byte blocks (least recently used out). */
class BlockCache {
  private readonly blocks = new Map<number, Uint8Array>();

  constructor(private readonly fd: number, private readonly path: string) {}

  private block(b: number): Uint8Array {
    let x = this.blocks.get(b);
    if (x) {
      this.blocks.delete(b);
      this.blocks.set(b, x);
      return x;
    }
    if (this.blocks.size >= BLOCKS) {
      const [oldest, reuse] = this.blocks.entries().next().value as [number, Uint8Array];
      this.blocks.delete(oldest);
      x = reuse;
    } else x = new Uint8Array(BLOCK);
    let got = 0;
    while (got < BLOCK) {
      const r = readSync(this.fd, x, got, BLOCK - got, b * BLOCK + got);
      if (r === 0) break;
      got += r;
    }
    this.blocks.set(b, x);
    return x;
  }

  /** Copies bytes [from, from + length) of the file into `into` (a byte view). */
  read(into: Uint8Array, from: number, length: number): void {
    let at = 0;
    while (at < length) {
      const b = Math.floor((from + at) / BLOCK), inBlock = (from + at) - b * BLOCK;
      const m = Math.min(BLOCK - inBlock, length - at);
      into.set(this.block(b).subarray(inBlock, inBlock + m), at);
      at += m;
    }
  }
}

/** Estimates of pairs from rows read back from the file (the same estimates as a SetEstimator over the same rows). */
class SpilledEstimator implements PairEstimator {
  readonly out = new Float64Array(4);
  private readonly a: Row = { w: new Uint32Array(0), start: 0, end: 0, cardinality: 0, modulusLog2: 0 };
  private readonly b: Row = { w: new Uint32Array(0), start: 0, end: 0, cardinality: 0, modulusLog2: 0 };
  private lastA = -1;
  private lastB = -1;
  private readonly kind: SketchParams['kind'];
  private readonly s: number;

  constructor(readonly set: SpilledSketches, private readonly cache: BlockCache) {
    this.kind = set.params.kind;
    this.s = set.params.s ?? Infinity;
  }

  private load(d: number, row: Row): void {
    const c = this.set.columns;
    const len = c.offsets[d + 1] - c.offsets[d];
    if (row.w.length < 2 * len) row.w = new Uint32Array(Math.max(2 * len, 256));
    this.cache.read(new Uint8Array(row.w.buffer, 0, len * 8), c.position[d] * 8, len * 8);
    row.start = 0; row.end = len;
    row.cardinality = c.cardinality[d];
    row.modulusLog2 = c.modulusLog2[d];
  }

  pair(a: number, b: number): number {
    if (a !== this.lastA) { this.load(a, this.a); this.lastA = a; }
    if (b !== this.lastB) { this.load(b, this.b); this.lastB = b; }
    return estimateRows(this.kind, this.s, this.a, this.b, this.out);
  }
}

/**
 * Sketches whose values are in a file: the per-document columns of a SketchSet (SketchDocuments)
 * in memory, rows read back from disk. `close()` removes the file.
 */
export class SpilledSketches implements SketchDocuments {
  readonly size: number;
  readonly offsets: Uint32Array;
  readonly cardinality: Float64Array;
  readonly tokens: Uint32Array;
  readonly modulusLog2: Uint8Array;
  readonly rawFp: BigUint64Array;
  readonly lexicalFp: BigUint64Array;
  readonly shingleFp: BigUint64Array;
  readonly templateTokens?: Uint32Array;
  private cache?: BlockCache;
  private closed = false;

  constructor(readonly params: SketchParams, readonly columns: SpilledColumns, readonly errors: SketchError[]) {
    this.size = columns.offsets.length - 1;
    this.offsets = columns.offsets;
    this.cardinality = columns.cardinality;
    this.tokens = columns.tokens;
    this.modulusLog2 = columns.modulusLog2;
    this.rawFp = columns.rawFp;
    this.lexicalFp = columns.lexicalFp;
    this.shingleFp = columns.shingleFp;
    this.templateTokens = columns.templateTokens;
  }

  tooLittleContent(i: number): boolean {
    return tooLittleContentOf(this, i);
  }

  templateShare(i: number): number {
    return templateShareOf(this, i);
  }

  private check(): void {
    if (this.closed) throw new ResembleError('E_IO', 'the spilled sketches were closed');
  }

  /** An estimator of pairs by DocId, reading rows back from the file (estimators share one block cache). */
  estimator(): PairEstimator {
    this.check();
    this.cache ??= new BlockCache(this.columns.fd, this.columns.path);
    return new SpilledEstimator(this, this.cache);
  }

  /**
   * Reads every row once, in file order (sequential reads), calling fn(d, w, start, end) with
   * DocId d's values as words w[2i], w[2i + 1] for i in [start, end) (valid during the call only).
   */
  scan(fn: (d: number, w: Uint32Array, start: number, end: number) => void): void {
    this.check();
    const { fileOrder, offsets, fd, path } = this.columns;
    let buf = new Uint8Array(PASS);
    let k = 0, pos = 0;
    while (k < fileOrder.length) {
      // As many whole rows as fit (at least one).
      let bytes = 0, last = k;
      while (last < fileOrder.length) {
        const d = fileOrder[last], len = (offsets[d + 1] - offsets[d]) * 8;
        if (bytes + len > buf.length && last > k) break;
        bytes += len; last++;
      }
      if (bytes > buf.length) buf = new Uint8Array(bytes);
      let got = 0;
      while (got < bytes) {
        const r = readSync(fd, buf, got, bytes - got, pos + got);
        if (r === 0) throw new ResembleError('E_IO', `the sketch file ${path} is shorter than written`, { path });
        got += r;
      }
      const w = new Uint32Array(buf.buffer, 0, bytes / 4);
      let at = 0;
      for (; k < last; k++) {
        const d = fileOrder[k], len = offsets[d + 1] - offsets[d];
        fn(d, w, at, at + len);
        at += len;
      }
      pos += bytes;
    }
  }

  /** Closes and removes the file. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try { closeSync(this.columns.fd); } finally {
      rmSync(this.columns.folder, { recursive: true, force: true });
      untrack(this.columns.folder);
    }
  }
}
