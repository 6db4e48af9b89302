// Sketches kept on disk instead of in the heap, for crawls whose sketches do not fit in memory
// (the DuckDB engine's path). Each batch's rows are appended to one file as the batch comes out of
// the worker pool; what stays in memory is the per-document columns (row lengths, cardinalities,
// fingerprints: about 50 bytes a page against about 1 KB of values with MIN_128). Rows are then
// read back either in one sequential pass (to count values, or to write the candidate keys), or a
// set at a time for the estimates of many pairs (RowGather: the rows a chunk of pairs names, read
// in file order), or one by one through a cache of file blocks for a single pair.
import { readSync } from 'node:fs';
import { ResembleError } from '../errors.js';
import type { PairEstimates, PairEstimator } from '../sketch/columns.js';
import { estimateRows, type Row } from '../sketch/row-estimates.js';
import { estimateRowPairs, type MinRows } from '../sketch/pair-estimates.js';
import type { SketchParams } from '../sketch/options.js';
import { templateShareOf, tooLittleContentOf, type SketchDocuments, type SketchError, type SketchSet } from '../sketch/sketch-set.js';
import { SpillFile } from './spill.js';

/** Bytes of the write chunks: rows are copied into one and appended whole to the spill file. */
const CHUNK = 4 << 20;
/** Bytes of a cached block for reads one row at a time, and blocks kept (64 MiB). */
const BLOCK = 1 << 15;
const BLOCKS = 2048;
/** Bytes of rows read at a time for the estimates of many pairs on this thread (`SpilledEstimator.many`). */
const MANY_BYTES = 32 << 20;
/** Bytes read at once by a sequential pass. */
const PASS = 16 << 20;
/**
 * A gap of at most this many bytes between two rows a RowGather reads is read with them, as a row
 * no pair names, instead of ending the read: one read() call costs about as much as copying a few
 * KiB from the page cache. Gap bytes in one set are bounded by a quarter of its capacity.
 */
const GAP = 4096;

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
  private readonly file: SpillFile;
  /** Values written (the file's length in values). */
  private at = 0;
  private chunk = new Uint8Array(CHUNK);
  private used = 0;
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
    this.file = new SpillFile(dir, 'resemble-sketches-', 'rows.bin', 'sketch file');
    if (params.content === 'main') this.templateTokens = new Uint32Array(1024);
  }

  private flushChunk(): void {
    if (this.used === 0) return;
    this.file.append(this.chunk.subarray(0, this.used));
    this.chunk = new Uint8Array(CHUNK);
    this.used = 0;
  }

  /** Appends a batch: row k of `set` is the sketch of DocId ids[k]. Resolves when the writes pending are few enough. */
  add(set: SketchSet, ids: Uint32Array): Promise<void> | void {
    this.file.check();
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
      const m = Math.min(CHUNK - this.used, bytes.length - from);
      this.chunk.set(bytes.subarray(from, from + m), this.used);
      this.used += m; from += m;
    }
    this.at += off[k];
    if (this.file.busy) return this.file.drain();
  }

  /**
   * Waits for every write; returns the sketches of DocIds 0..n−1 (`n`, the documents read: those
   * never added have empty rows) with their sketching errors. The store's file now belongs to them.
   */
  async finish(n: number, errors: SketchError[]): Promise<SpilledSketches> {
    this.flushChunk();
    await this.file.finish();
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
      file: this.file, path: this.file.path, fd: this.file.fd, offsets, position: size(this.position) as Float64Array,
      fileOrder: this.fileOrder.slice(0, this.rows), cardinality: size(this.cardinality) as Float64Array,
      tokens: size(this.tokens) as Uint32Array, modulusLog2: size(this.modulusLog2) as Uint8Array, rawFp: size(this.rawFp) as BigUint64Array,
      lexicalFp: size(this.lexicalFp) as BigUint64Array, shingleFp: size(this.shingleFp) as BigUint64Array,
      templateTokens: this.templateTokens ? size(this.templateTokens) as Uint32Array : undefined,
    }, errors);
    return spilled;
  }

  /** Closes and removes the file (after a failure; `finish` hands the file over instead). */
  remove(): void {
    this.file.remove();
  }
}

/** The small per-page columns kept in memory while the sketches wait in a file. */
interface SpilledColumns {
  file: SpillFile;
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

/**
 * The rows of chosen DocIds read back from the file into one compact set, for the estimates of many
 * pairs: pairs are added while their rows fit `capacity` bytes (the first pair always fits), then
 * `read` reads exactly those rows in ascending file offset, rows that lie next to each other (or
 * at most GAP bytes apart) in one read() call, and returns them as CSR rows whose row `row(d)` is
 * DocId d's. A gap read between two rows is a row of its own that no DocId names. The set is read
 * into one of `buffers` reused buffers in turn (SharedArrayBuffers when `shared`, for worker threads
 * to read in place): rows returned stay valid until `buffers` more reads. Memory: `buffers` times
 * the capacity and its gaps (a quarter more at most), plus 4 bytes a document for the DocIds' places.
 */
export class RowGather {
  /** Per DocId: 0 when not in the set, else 1 + its place in `list` (before `read`) or its row (after). */
  private readonly slots: Uint32Array;
  private list = new Uint32Array(1024);
  private count = 0;
  private bytes = 0;
  private reads = 0;
  private readonly buffers: { values: BigUint64Array; bytes: Uint8Array; offsets: Uint32Array }[] = [];
  private sorted = new Uint32Array(1024);
  private gapBefore = new Uint8Array(1024);
  /** Bytes and read() calls of the reads so far. */
  bytesRead = 0;
  calls = 0;

  constructor(private readonly set: SpilledSketches, readonly capacity: number, buffers = 1, private readonly shared = false) {
    this.slots = new Uint32Array(set.size);
    for (let i = 0; i < buffers; i++) this.buffers.push({ values: new BigUint64Array(0), bytes: new Uint8Array(0), offsets: new Uint32Array(0) });
  }

  /** DocIds in the set. */
  get size(): number {
    return this.count;
  }

  private rowBytes(d: number): number {
    return (this.set.offsets[d + 1] - this.set.offsets[d]) * 8;
  }

  private put(d: number): void {
    if (this.slots[d] !== 0) return;
    if (this.count === this.list.length) this.list = grown(this.list, this.count + 1);
    this.list[this.count++] = d;
    this.slots[d] = this.count;
    this.bytes += this.rowBytes(d);
  }

  /** Adds the rows of DocIds a and b; false (nothing added) when they would take the set past its capacity. */
  addPair(a: number, b: number): boolean {
    const n = this.set.size;
    if (!(a >= 0 && a < n && b >= 0 && b < n)) throw new ResembleError('E_INPUT', `RowGather: DocIds ${a}, ${b} beyond the ${n} documents`);
    const need = (this.slots[a] === 0 ? this.rowBytes(a) : 0) + (this.slots[b] === 0 && b !== a ? this.rowBytes(b) : 0);
    if (need > 0 && this.count > 0 && this.bytes + need > this.capacity) return false;
    this.put(a); this.put(b);
    return true;
  }

  /** The row of DocId d in the rows `read` returned last (d must be in the set). */
  row(d: number): number {
    return this.slots[d] - 1;
  }

  /** Writes the rows of DocIds docs[i] into out[i] (see `row`). */
  rows(docs: Uint32Array, out: Uint32Array): void {
    const slots = this.slots;
    for (let i = 0; i < docs.length; i++) out[i] = slots[docs[i]] - 1;
  }

  /** Reads the rows of the DocIds added; returns them (row(d) is d's). The set stays until `clear`. */
  read(): { values: BigUint64Array; offsets: Uint32Array } {
    this.set.check();
    const { position, fd, path } = this.set.columns;
    const off = this.set.offsets, fileOrder = this.set.columns.fileOrder, rank = this.set.ranks();
    const count = this.count, slots = this.slots, list = this.list;
    if (this.sorted.length < count) { this.sorted = grown(this.sorted, count); this.gapBefore = grown(this.gapBefore, count); }
    // The rows in file order (each row's place in the file), then the gaps worth reading with them.
    let m = 0;
    for (let i = 0; i < count; i++) { const d = list[i]; if (off[d + 1] > off[d]) this.sorted[m++] = rank[d]; }
    const sorted = this.sorted.subarray(0, m).sort(), gapBefore = this.gapBefore;
    let rowsOut = count, total = 0, gapBytes = 0, end = 0;
    for (let j = 0; j < m; j++) {
      const d = fileOrder[sorted[j]], p = position[d], gap = (p - end) * 8;
      gapBefore[j] = 0;
      if (j > 0 && gap > 0 && gap <= GAP && gapBytes + gap <= this.capacity / 4) { gapBefore[j] = 1; gapBytes += gap; rowsOut++; total += p - end; }
      total += off[d + 1] - off[d];
      end = p + off[d + 1] - off[d];
    }
    const buffer = this.buffers[this.reads++ % this.buffers.length];
    // 8 bytes of padding: the estimate kernel reads one value past a row
    if (buffer.values.length < total + 1) {
      const values = total + 1 + (total >>> 3);
      buffer.values = new BigUint64Array(this.shared ? new SharedArrayBuffer(values * 8) : new ArrayBuffer(values * 8));
      buffer.bytes = new Uint8Array(buffer.values.buffer);
    }
    if (buffer.offsets.length < rowsOut + 1) {
      const rows = rowsOut + 1 + (rowsOut >>> 3);
      buffer.offsets = new Uint32Array(this.shared ? new SharedArrayBuffer(rows * 4) : new ArrayBuffer(rows * 4));
    }
    const offsets = buffer.offsets, bytes = buffer.bytes;
    // One read per run of rows and gaps lying end to end in the file.
    let r = 0, at = 0, runFrom = 0, runAt = 0;
    const flush = () => {
      const length = (at - runAt) * 8;
      let got = 0;
      while (got < length) {
        const k = readSync(fd, bytes, runAt * 8 + got, length - got, runFrom * 8 + got);
        if (k === 0) throw new ResembleError('E_IO', `the sketch file ${path} is shorter than written`, { path });
        got += k;
        this.calls++;
      }
      this.bytesRead += length;
    };
    end = 0;
    for (let j = 0; j < m; j++) {
      const d = fileOrder[sorted[j]], p = position[d], len = off[d + 1] - off[d];
      if (j > 0 && gapBefore[j]) { offsets[r++] = at; at += p - end; }
      else if (j > 0 && p !== end) { flush(); runFrom = p; runAt = at; }
      else if (j === 0) { runFrom = p; runAt = at; }
      offsets[r] = at;
      slots[d] = ++r;
      at += len;
      end = p + len;
    }
    if (m > 0) flush();
    // rows left empty (pages with too little content) last, each of no values
    for (let i = 0; i < count; i++) { const d = list[i]; if (off[d + 1] === off[d]) { offsets[r] = at; slots[d] = ++r; } }
    offsets[r] = at;
    return { values: buffer.values.subarray(0, at), offsets: offsets.subarray(0, r + 1) };
  }

  /** Empties the set (the rows read stay where they are until their buffer is read into again). */
  clear(): void {
    const slots = this.slots, list = this.list;
    for (let i = 0; i < this.count; i++) slots[list[i]] = 0;
    this.count = 0;
    this.bytes = 0;
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

  constructor(readonly set: SpilledSketches, private readonly cache: BlockCache, private readonly manyBytes: number) {
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

  /** Estimates many pairs from their rows read a set at a time, in file order (RowGather), not one by one through the cache. */
  many(a: Uint32Array, b: Uint32Array, into: PairEstimates): void {
    const n = a.length;
    if (b.length !== n) throw new ResembleError('E_INPUT', `many: expected as many second documents as first, got ${b.length} and ${n}`);
    const gather = new RowGather(this.set, this.manyBytes);
    const ra = new Uint32Array(Math.min(n, 1 << 20)), rb = new Uint32Array(ra.length);
    const mod = this.set.modulusLog2;
    let from = 0;
    const run = (to: number) => {
      if (to === from) return;
      const rows = gather.read();
      const x = ra.subarray(0, to - from), y = rb.subarray(0, to - from);
      gather.rows(a.subarray(from, to), x); gather.rows(b.subarray(from, to), y);
      const at = from;
      estimateRowPairs(this.kind, this.s, rows, x, y, 0, (i, shared, r, cab, cba) => {
        into.resemblance[at + i] = r; into.containmentAB[at + i] = cab; into.containmentBA[at + i] = cba; into.shared[at + i] = shared;
      }, this.kind === 'adaptive' ? { modulusLog2: mod, a: a.subarray(from, to), b: b.subarray(from, to) } : undefined);
      gather.clear();
      from = to;
    };
    for (let i = 0; i < n; i++) if (i - from === ra.length || !gather.addPair(a[i], b[i])) { run(i); gather.addPair(a[i], b[i]); }
    run(n);
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
  private rank?: Uint32Array;
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

  /** Throws once the file is closed. */
  check(): void {
    if (this.closed) throw new ResembleError('E_IO', 'the spilled sketches were closed');
  }

  /** Per DocId, its row's place among the rows in file order (made once; 4 bytes a document). */
  ranks(): Uint32Array {
    if (!this.rank) {
      const order = this.columns.fileOrder;
      this.rank = new Uint32Array(this.size);
      for (let k = 0; k < order.length; k++) this.rank[order[k]] = k;
    }
    return this.rank;
  }

  /**
   * A RowGather over these rows: sets of rows of at most `capacity` bytes each, read in file order
   * into `buffers` buffers in turn (SharedArrayBuffers when `shared`).
   */
  gather(capacity: number, buffers = 1, shared = false): RowGather {
    this.check();
    return new RowGather(this, capacity, buffers, shared);
  }

  /**
   * An estimator of pairs by DocId, reading rows back from the file: one pair's through a cache of
   * blocks (estimators share one), many pairs' a set of rows of at most `manyBytes` at a time
   * (default 64 MiB) in file order.
   */
  estimator(manyBytes = MANY_BYTES): PairEstimator {
    this.check();
    this.cache ??= new BlockCache(this.columns.fd, this.columns.path);
    return new SpilledEstimator(this, this.cache, manyBytes);
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
    this.columns.file.remove();
  }
}
