// The documents of an index as columns: sketch values and offsets, cardinalities, token counts,
// whole-document fingerprints, crawl dates, removal marks, and the key (URL) ↔ DocId maps. Arrays
// grow by doubling; removed documents keep their DocId and their rows.
import { ResembleError, optionError, rejectUnknown } from '../../errors.js';
import { assertComparable } from '../../sketch/sketch.js';
import { checkSketch, isSketch, SketchSet, thinRow, type Sketch, type SketchColumns } from '../../sketch/sketch-set.js';
import { checkColumns, type ClusterColumns, type ClusterParams } from '../../sketch/columns.js';
import { parseDate, type DocumentMeta } from './options.js';

/** Columns a sweep may hand over: a set's, with token counts when it has them. */
export type SweepColumns = ClusterColumns & { tokens?: Uint32Array };

/** Takes a sketch or a set and the caller's name; returns it as columns (a sketch as a one-row set), E_INPUT for anything else. */
export function asColumns(input: SweepColumns | Sketch, where: string): SweepColumns {
  if (isSketch(input)) { checkSketch(input, where); return SketchSet.from([input]); }
  if (typeof input !== 'object' || input === null) throw new ResembleError('E_INPUT', `${where}: expected a Sketch or a SketchSet, got ${input === null ? 'null' : typeof input}`);
  return input;
}

/** Takes a sketch or a one-row set and the caller's name; returns the sketch (checked), E_INPUT otherwise. */
export function asSketch(input: Sketch | ClusterColumns, where: string): Sketch {
  if (!isSketch(input) && typeof input === 'object' && input !== null && 'offsets' in input) {
    const set = input as SweepColumns;
    if (set.size !== 1) throw new ResembleError('E_INPUT', `${where}: expected one sketch, got a set of ${set.size}`);
    checkColumns(set, where);
    return {
      params: set.params, values: set.values.subarray(set.offsets[0], set.offsets[1]), cardinality: set.cardinality[0],
      modulusLog2: set.modulusLog2?.[0] ?? 0, tokens: set.tokens?.[0] ?? 0,
    };
  }
  checkSketch(input, where);
  return input;
}

/** The stored columns of a store (views, or arrays adopted from a file). */
export interface StoreColumns extends Omit<SketchColumns, 'signature'> {
  size: number;
  dates: Float64Array;
  removed: Uint8Array;
  urls: (string | undefined)[];
}

/** The documents of an index as growable columns, with the key → DocIds chains. */
export class IndexStore {
  n = 0;
  nValues = 0;
  values: BigUint64Array = new BigUint64Array(1024);
  offsets: Uint32Array = new Uint32Array(1025);
  cardinality: Float64Array = new Float64Array(1024);
  tokens: Uint32Array = new Uint32Array(1024);
  modulusLog2: Uint8Array = new Uint8Array(1024);
  rawFp: BigUint64Array = new BigUint64Array(1024);
  lexicalFp: BigUint64Array = new BigUint64Array(1024);
  shingleFp: BigUint64Array = new BigUint64Array(1024);
  dates: Float64Array = new Float64Array(1024);
  removed: Uint8Array = new Uint8Array(1024);
  urls: (string | undefined)[] = [];
  /** Live documents. */
  live = 0;
  /** Per document, the previous (older) document with the same key, -1 at the end of the chain. */
  private prevSameUrl: Int32Array = new Int32Array(1024);
  private lastOfUrl = new Map<string, number>();

  /** Takes the sketch parameters every row has. */
  constructor(readonly params: ClusterParams) {}

  /** Takes stored columns and their parameters; returns a store adopting them (not copied). */
  static adopt(params: ClusterParams, s: StoreColumns): IndexStore {
    const store = new IndexStore(params);
    const n = s.size;
    store.n = n;
    store.nValues = s.values.length;
    store.values = s.values; store.offsets = s.offsets; store.cardinality = s.cardinality; store.tokens = s.tokens;
    store.modulusLog2 = s.modulusLog2; store.rawFp = s.rawFp; store.lexicalFp = s.lexicalFp; store.shingleFp = s.shingleFp;
    store.dates = s.dates; store.removed = s.removed; store.urls = s.urls;
    store.prevSameUrl = new Int32Array(Math.max(1, n)).fill(-1);
    for (let d = 0; d < n; d++) store.chain(d, s.urls[d]);
    for (let d = 0; d < n; d++) if (!s.removed[d]) store.live++;
    // Typed arrays adopted from a file are exactly full; growth on the next insert copies them.
    return store;
  }

  /** Takes a DocId; throws E_OPTION unless it is one given so far. */
  checkId(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.n) throw optionError('document id', `integer 0..${this.n - 1}`, id);
  }

  /** Takes a sweep's columns and metadata; throws (E_INPUT, E_PARAMS, E_OPTION) unless they can be appended. */
  check(set: SweepColumns, meta: DocumentMeta): void {
    checkColumns(set, 'ResembleIndex.insertMany');
    assertComparable(set.params, this.params, 'sketches added to an index');
    rejectUnknown(meta, ['keys', 'dates'], 'ResembleIndex.insertMany meta');
    const k = set.size;
    if (meta.keys && meta.keys.length !== k) throw optionError('keys', `${k} keys (one per document)`, `${meta.keys.length}`);
    if (meta.dates && meta.dates.length !== k) throw optionError('dates', `${k} dates (one per document)`, `${meta.dates.length}`);
  }

  /** Takes a checked sweep's columns and metadata; appends its rows and returns the first new DocId. */
  append(set: SweepColumns, meta: DocumentMeta): number {
    const k = set.size;
    const n0 = this.n;
    this.reserve(n0 + k, this.nValues + set.values.length);
    this.values.set(set.values, this.nValues);
    for (let i = 0; i < k; i++) this.offsets[n0 + i + 1] = this.nValues + set.offsets[i + 1];
    this.nValues += set.values.length;
    this.cardinality.set(set.cardinality, n0);
    if (set.tokens) this.tokens.set(set.tokens, n0); else this.tokens.fill(0, n0, n0 + k);
    if (set.modulusLog2) this.modulusLog2.set(set.modulusLog2, n0); else this.modulusLog2.fill(0, n0, n0 + k);
    // Documents without whole-document fingerprints get 0n, which means unknown: they never short-cut.
    for (const [dst, src] of [[this.rawFp, set.rawFp], [this.lexicalFp, set.lexicalFp], [this.shingleFp, set.shingleFp]] as const) {
      if (src) dst.set(src, n0); else dst.fill(0n, n0, n0 + k);
    }
    for (let i = 0; i < k; i++) {
      const d = n0 + i;
      this.dates[d] = parseDate(meta.dates?.[i]);
      this.removed[d] = 0;
      const url = meta.keys?.[i];
      this.urls[d] = url;
      this.prevSameUrl[d] = -1;
      this.chain(d, url);
    }
    this.n = n0 + k;
    this.live += k;
    return n0;
  }

  /** Links document d into its key's chain. */
  private chain(d: number, url: string | undefined): void {
    if (url === undefined) return;
    const prev = this.lastOfUrl.get(url);
    if (prev !== undefined) this.prevSameUrl[d] = prev;
    this.lastOfUrl.set(url, d);
  }

  private reserve(docs: number, values: number): void {
    const cap = this.cardinality.length;
    if (docs > cap) {
      let c = Math.max(16, cap);
      while (c < docs) c *= 2;
      const g = <T extends Float64Array | Uint32Array | Uint8Array | BigUint64Array | Int32Array>(a: T, len = c): T => {
        const b = new (a.constructor as new (n: number) => T)(len);
        b.set(a as never);
        return b;
      };
      this.offsets = g(this.offsets, c + 1);
      this.cardinality = g(this.cardinality); this.tokens = g(this.tokens); this.modulusLog2 = g(this.modulusLog2);
      this.rawFp = g(this.rawFp); this.lexicalFp = g(this.lexicalFp); this.shingleFp = g(this.shingleFp);
      this.dates = g(this.dates); this.removed = g(this.removed); this.prevSameUrl = g(this.prevSameUrl);
    }
    if (values > this.values.length) {
      let c = Math.max(1024, this.values.length);
      while (c < values) c *= 2;
      const b = new BigUint64Array(c);
      b.set(this.values.subarray(0, this.nValues));
      this.values = b;
    }
  }

  /** The columns of documents 0..n-1 (views; valid until the next append). */
  columns(): ClusterColumns {
    const n = this.n;
    return {
      size: n, params: this.params, values: this.values.subarray(0, this.nValues), offsets: this.offsets.subarray(0, n + 1),
      cardinality: this.cardinality.subarray(0, n), modulusLog2: this.modulusLog2.subarray(0, n),
      rawFp: this.rawFp.subarray(0, n), lexicalFp: this.lexicalFp.subarray(0, n), shingleFp: this.shingleFp.subarray(0, n),
    };
  }

  /** The stored columns of documents 0..n-1 (views), as a file holds them. */
  stored(): StoreColumns {
    const n = this.n;
    return {
      size: n, values: this.values.subarray(0, this.nValues), offsets: this.offsets.subarray(0, n + 1), cardinality: this.cardinality.subarray(0, n),
      tokens: this.tokens.subarray(0, n), modulusLog2: this.modulusLog2.subarray(0, n), rawFp: this.rawFp.subarray(0, n),
      lexicalFp: this.lexicalFp.subarray(0, n), shingleFp: this.shingleFp.subarray(0, n), dates: this.dates.subarray(0, n),
      removed: this.removed.subarray(0, n), urls: this.urls.slice(0, n),
    };
  }

  /** Takes a DocId; returns its sketch (a view). */
  sketch(id: number): Sketch {
    this.checkId(id);
    return {
      params: this.params, values: this.values.subarray(this.offsets[id], this.offsets[id + 1]),
      cardinality: this.cardinality[id], modulusLog2: this.modulusLog2[id], tokens: this.tokens[id],
      rawFp: this.rawFp[id], lexicalFp: this.lexicalFp[id], shingleFp: this.shingleFp[id],
    };
  }

  /** Takes a key; returns the live documents with it, newest DocId first. */
  docIds(url: string): number[] {
    const out: number[] = [];
    for (let d = this.lastOfUrl.get(url) ?? -1; d >= 0; d = this.prevSameUrl[d]) if (!this.removed[d]) out.push(d);
    return out;
  }

  /** Takes a DocId; returns its crawl date (ISO 8601), undefined when unknown. */
  dateOf(id: number): string | undefined {
    const t = this.dates[id];
    return Number.isNaN(t) ? undefined : new Date(t).toISOString();
  }

  /** Takes a DocId and an equivalence level (0 identical, 1 lexical, 2 shingle); true when it may short-cut at it: fingerprints known (0n is unknown), and not empty where that matters. */
  eligible(d: number, level: number): boolean {
    if (this.rawFp[d] === 0n) return false;
    // a content page with too little content (no row) by its own fingerprints: its whole text's
    // (lexical) and its title and content's (shingle), when not 0
    const thin = thinRow(this.offsets, this.cardinality, d);
    if (level === 1) return this.cardinality[d] > 0 || (thin && this.lexicalFp[d] !== 0n);
    if (level === 2) return this.offsets[d + 1] > this.offsets[d] || (thin && this.shingleFp[d] !== 0n);
    return true;
  }

  /** Takes DocIds (ascending); returns their rows copied into columns of their own (local index i is docs[i]). */
  gather(docs: Uint32Array): ClusterColumns & { rawFp: BigUint64Array } {
    const k = docs.length;
    const offsets = new Uint32Array(k + 1);
    for (let i = 0; i < k; i++) offsets[i + 1] = offsets[i] + this.offsets[docs[i] + 1] - this.offsets[docs[i]];
    const values = new BigUint64Array(offsets[k]);
    const cardinality = new Float64Array(k), modulusLog2 = new Uint8Array(k);
    const rawFp = new BigUint64Array(k), lexicalFp = new BigUint64Array(k), shingleFp = new BigUint64Array(k);
    for (let i = 0; i < k; i++) {
      const d = docs[i];
      values.set(this.values.subarray(this.offsets[d], this.offsets[d + 1]), offsets[i]);
      cardinality[i] = this.cardinality[d]; modulusLog2[i] = this.modulusLog2[d];
      rawFp[i] = this.rawFp[d]; lexicalFp[i] = this.lexicalFp[d]; shingleFp[i] = this.shingleFp[d];
    }
    return { size: k, params: this.params, values, offsets, cardinality, modulusLog2, rawFp, lexicalFp, shingleFp };
  }
}
