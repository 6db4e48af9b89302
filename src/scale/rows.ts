// Builders of contract rows (see contract.ts) from the library's columns: sketch rows, documents,
// the link CSR and trivial clusters. Each shard of a fleet passes `docBase`, its first DocId, so the
// rows of all shards can be read as one table.
import { ResembleError, intOption } from '../errors.js';
import { hostOfUrl } from '../graph/url.js';
import { asSigned, type TableRows } from './contract.js';

/** Which documents to write and how to number them. */
export interface RowOptions {
  /** Only these DocIds (ascending); all when absent. */
  docs?: Uint32Array;
  /** Added to every DocId written (a shard's first global DocId). Default 0. */
  docBase?: number;
  /** Instead of docBase: the DocId of each row (row i is DocId ids[i]), e.g. a shard's pages among all. */
  ids?: ArrayLike<number>;
}

/** Takes the options and a row; returns the DocId written for it. */
function docOf(options: RowOptions | undefined, b: number, row: number): number {
  return options?.ids ? options.ids[row] : row + b;
}

function base(options: RowOptions | undefined): number {
  return intOption('docBase', options?.docBase, 0, 0, Number.MAX_SAFE_INTEGER);
}

/** CSR rows of 64-bit values per document: a SketchSet, its super-shingles, or LSH band keys. */
export interface KeyRowsSource {
  values: BigUint64Array;
  offsets: Uint32Array;
}

/** Takes CSR rows of 64-bit keys per document; returns the `keys` table rows (key, doc), keys as signed INT64 with the same bits. */
export function keyRows(csr: KeyRowsSource, options?: RowOptions): TableRows {
  const b = base(options);
  const n = csr.offsets.length - 1;
  const docs = options?.docs;
  if (options?.ids && (docs || options.ids.length !== n)) throw new ResembleError('E_INPUT', `keyRows: expected ${n} ids and no docs`);
  if (!docs) {
    const doc = new BigInt64Array(csr.values.length);
    for (let d = 0; d < n; d++) doc.fill(BigInt(docOf(options, b, d)), csr.offsets[d], csr.offsets[d + 1]);
    return { key: asSigned(csr.values.subarray(0, csr.offsets[n])), doc };
  }
  let total = 0;
  for (const d of docs) {
    if (d >= n) throw new ResembleError('E_INPUT', `keyRows: DocId ${d} out of range 0..${n - 1}`);
    total += csr.offsets[d + 1] - csr.offsets[d];
  }
  const key = new BigInt64Array(total), doc = new BigInt64Array(total);
  const signed = asSigned(csr.values);
  let at = 0;
  for (const d of docs) {
    const lo = csr.offsets[d], hi = csr.offsets[d + 1];
    key.set(signed.subarray(lo, hi), at);
    doc.fill(BigInt(d + b), at, at + hi - lo);
    at += hi - lo;
  }
  return { key, doc };
}

/** Takes sketch rows with cardinalities; returns the `sizes` table rows (doc, length, cardinality). */
export function sizeRows(set: KeyRowsSource & { cardinality: Float64Array }, options?: RowOptions): TableRows {
  const b = base(options);
  const n = set.offsets.length - 1;
  const docs = options?.docs ?? Uint32Array.from({ length: n }, (_, i) => i);
  if (options?.ids && (options.docs || options.ids.length !== n)) throw new ResembleError('E_INPUT', `sizeRows: expected ${n} ids and no docs`);
  const doc = new BigInt64Array(docs.length), length = new Int32Array(docs.length), cardinality = new Float64Array(docs.length);
  for (let i = 0; i < docs.length; i++) {
    const d = docs[i];
    doc[i] = BigInt(options?.ids ? options.ids[d] : d + b);
    length[i] = set.offsets[d + 1] - set.offsets[d];
    cardinality[i] = set.cardinality[d];
  }
  return { doc, length, cardinality };
}

/**
 * Takes each document's key count, the documents and a bound; returns the (doc, n) rows of the
 * documents with at least one key and fewer than `bound` (n their keys): the `short` table of the
 * pairs-short template. Two passes over typed arrays (no array of BigInts at ten million pages).
 */
export function shortRows(keysOf: (d: number) => number, docs: ArrayLike<number>, bound: number): { doc: BigInt64Array; n: BigInt64Array } {
  let count = 0;
  for (let i = 0; i < docs.length; i++) { const k = keysOf(docs[i]); if (k > 0 && k < bound) count++; }
  const doc = new BigInt64Array(count), n = new BigInt64Array(count);
  for (let i = 0, at = 0; i < docs.length; i++) {
    const d = docs[i], k = keysOf(d);
    if (k > 0 && k < bound) { doc[at] = BigInt(d); n[at++] = BigInt(k); }
  }
  return { doc, n };
}

/** The per-page columns of a sketch batch the `pages` table holds (a SketchSet has them). */
export interface PageColumns {
  size: number;
  tokens: Uint32Array;
  templateTokens?: Uint32Array;
  modulusLog2: Uint8Array;
  rawFp: BigUint64Array;
  lexicalFp: BigUint64Array;
  shingleFp: BigUint64Array;
  errors: readonly { index: number; message: string }[];
}

/** Takes a sketch batch and options (docBase or ids); returns the `pages` table rows: what the final phase needs of each page besides its sketch. */
export function pageRows(set: PageColumns, options?: RowOptions): TableRows {
  const b = base(options), n = set.size;
  if (options?.ids && options.ids.length !== n) throw new ResembleError('E_INPUT', `pageRows: expected ${n} ids`);
  const doc = new BigInt64Array(n), tokens = new Int32Array(n), templateTokens = new Int32Array(n), modulus = new Int32Array(n);
  const error: (string | null)[] = new Array(n).fill(null);
  for (let i = 0; i < n; i++) {
    doc[i] = BigInt(docOf(options, b, i));
    tokens[i] = set.tokens[i]; templateTokens[i] = set.templateTokens?.[i] ?? 0; modulus[i] = set.modulusLog2[i];
  }
  for (const e of set.errors) error[e.index] = e.message;
  return {
    doc, tokens, template_tokens: templateTokens, modulus_log2: modulus,
    raw_fp: asSigned(set.rawFp.slice(0, n)), lexical_fp: asSigned(set.lexicalFp.slice(0, n)), shingle_fp: asSigned(set.shingleFp.slice(0, n)), error,
  };
}

/** What the documents table needs of a page (a reader's Document has it). */
export interface DocumentFields {
  url: string;
  date?: string;
  ip?: string;
}

/** Takes documents in DocId order; returns the `documents` table rows (doc, url, host, date, ip); unknown values are null. */
export function documentRows(docs: ArrayLike<DocumentFields>, options?: { docBase?: number; ids?: ArrayLike<number> }): TableRows {
  const b = base(options);
  const n = docs.length;
  if (options?.ids && options.ids.length !== n) throw new ResembleError('E_INPUT', `documentRows: expected ${n} ids`);
  const doc = new BigInt64Array(n);
  const url: string[] = [], host: (string | null)[] = [], date: (number | null)[] = [], ip: (string | null)[] = [];
  for (let i = 0; i < n; i++) {
    const d = docs[i];
    doc[i] = BigInt(docOf(options, b, i));
    url.push(d.url);
    host.push(hostOfUrl(d.url) || null);
    const t = d.date === undefined ? NaN : Date.parse(d.date);
    date.push(Number.isNaN(t) ? null : t);
    ip.push(d.ip ?? null);
  }
  return { doc, url, host, date, ip };
}

/** Takes links as CSR over DocIds (a WebGraph's linkOffsets / linkTargets); returns the `links` table rows (src, dst). */
export function linkRows(links: { linkOffsets: Uint32Array; linkTargets: Uint32Array }, options?: { docBase?: number }): TableRows {
  const b = base(options);
  const { linkOffsets, linkTargets } = links;
  const n = linkOffsets.length - 1;
  const m = linkOffsets[n];
  const src = new BigInt64Array(m), dst = new BigInt64Array(m);
  for (let p = 0; p < n; p++) src.fill(BigInt(p + b), linkOffsets[p], linkOffsets[p + 1]);
  for (let e = 0; e < m; e++) dst[e] = BigInt(linkTargets[e] + b);
  return { src, dst };
}

/** Takes trivial clusters as CSR (rid r holds pages[offsets[r]..offsets[r+1])); returns the `members` table rows (rid, pid). */
export function memberRows(trivial: { count: number; offsets: Uint32Array; pages: Uint32Array }, options?: { docBase?: number }): TableRows {
  const b = base(options);
  const m = trivial.offsets[trivial.count];
  const rid = new BigInt64Array(m), pid = new BigInt64Array(m);
  for (let r = 0; r < trivial.count; r++) rid.fill(BigInt(r), trivial.offsets[r], trivial.offsets[r + 1]);
  for (let i = 0; i < m; i++) pid[i] = BigInt(trivial.pages[i] + b);
  return { rid, pid };
}
