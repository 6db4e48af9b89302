// The index file, version 1, little-endian (like the SketchSet format):
//   0  magic "RSMBLIDX" · 8 u16 version · 10 u16 header bytes (32) · 12 u32 sections
//  16  u64 fingerprint polynomial · 24 u32 documents · 28 u32 reserved (0)
//  32  sections, each: u32 tag · u32 element bytes · u64 payload bytes · payload · pad to 8
// end  u32 checksum (see `checksum`) of every byte before it
// Section 1 holds the sketch parameters and section 2 the index options, as JSON (the seed as a
// decimal string); loading compares the parameters with those expected and rejects others
// (E_PARAMS). Unknown tags are skipped, so later minor additions stay readable. Content-mode
// indexes add the sites' template tables: section 30 the sites as JSON ([site, has a table]...),
// 31 u32 offsets and 32 u64 values (site k's table is values[offsets[k]..offsets[k+1])).
import { ResembleError } from '../../errors.js';
import { POLYNOMIAL } from '../../sketch/rabin.js';
import { paramDiff, sameParams, type SketchParams } from '../../sketch/options.js';
import { LITTLE_ENDIAN, type ClusterParams } from '../../sketch/columns.js';
import type { PostingLists } from '../postings.js';
import { resolveIndexOptions, type ResolvedIndexOptions } from './options.js';
import type { StoreColumns } from './store.js';

/** content 'main': each site's template table (undefined: the site was settled without one), so later pages and queries are sketched the same way. */
export type SiteTables = Map<string, BigUint64Array | undefined>;

/** What an index file holds: the stored columns, the clusters' roots, the sorted postings and the sites' templates. */
export interface IndexState extends StoreColumns {
  params: ClusterParams;
  options: ResolvedIndexOptions;
  roots: Int32Array;
  /** Sorted postings of the documents below `baseEnd` (the live ones when they were merged). */
  postings?: PostingLists;
  baseEnd: number;
  /** Documents removed since the postings were built (they are skipped in queries until rebuilt). */
  staleRemovals: number;
  /** content 'main': the template table of each site, as its pages were sketched. */
  templates?: SiteTables;
}

/** "RSMBLIDX" as bytes. */
export const INDEX_MAGIC = new TextEncoder().encode('RSMBLIDX');
/** The format version this library writes and reads. */
export const INDEX_VERSION = 1;
const HEADER = 32;

const T = {
  params: 1, options: 2, offsets: 3, values: 4, cardinality: 5, tokens: 6, modulusLog2: 7, rawFp: 8, lexicalFp: 9,
  shingleFp: 10, dates: 11, removed: 12, roots: 13, urlOffsets: 14, urlBytes: 15, urlPresent: 16,
  postMeta: 20, postDocs: 21, postStart: 22, postKeyHi: 23, postKeyLo: 24, postParts: 25,
  templateSites: 30, templateOffsets: 31, templateValues: 32,
} as const;

type View = Uint8Array | Uint32Array | Int32Array | Float64Array | BigUint64Array;

/**
 * Checksum of the file body (length a multiple of 4): per 32-bit word h = rotl(h ^ word, 13) ·
 * 0x9e3779b1 + 0x6b43a9b5. Every step is a bijection of h, so a change in any one word always
 * changes the result, and other damage escapes with odds 2^-32; a word at a time, it is about 4×
 * faster than a bytewise CRC-32 in JavaScript (1.3 GB indexes).
 */
export function checksum(bytes: Uint8Array): number {
  const w = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
  let h = 0x811c9dc5 ^ bytes.length;
  for (let i = 0; i < w.length; i++) {
    h ^= w[i];
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 0x9e3779b1) + 0x6b43a9b5) | 0;
  }
  return h >>> 0;
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
}

/** Takes an index's state (its postings merged); returns the file's bytes. */
export function encodeIndex(s: IndexState): Uint8Array {
  if (!LITTLE_ENDIAN) throw new ResembleError('E_FORMAT', 'saving an index needs a little-endian host');
  const enc = new TextEncoder();
  const urlParts: Uint8Array[] = [];
  const urlOffsets = new Uint32Array(s.size + 1);
  const present = new Uint8Array(s.size);
  let at = 0;
  for (let d = 0; d < s.size; d++) {
    const u = s.urls[d];
    if (u !== undefined) { const b = enc.encode(u); urlParts.push(b); at += b.length; present[d] = 1; }
    urlOffsets[d + 1] = at;
  }
  const urlBytes = new Uint8Array(at);
  at = 0;
  for (const b of urlParts) { urlBytes.set(b, at); at += b.length; }
  const sections: [number, View][] = [
    [T.params, json(s.params)], [T.options, json(s.options)],
    [T.offsets, s.offsets], [T.values, s.values], [T.cardinality, s.cardinality], [T.tokens, s.tokens], [T.modulusLog2, s.modulusLog2],
    [T.rawFp, s.rawFp], [T.lexicalFp, s.lexicalFp], [T.shingleFp, s.shingleFp], [T.dates, s.dates], [T.removed, s.removed],
    [T.roots, s.roots], [T.urlOffsets, urlOffsets], [T.urlBytes, urlBytes], [T.urlPresent, present],
  ];
  const p = s.postings;
  if (p) {
    sections.push([T.postMeta, new Uint32Array([p.partitionBits, s.baseEnd, p.lists])], [T.postDocs, p.docs], [T.postStart, p.listStart],
      [T.postKeyHi, p.keyHi!], [T.postKeyLo, p.keyLo!], [T.postParts, p.partStart]);
  }
  if (s.templates && s.templates.size > 0) {
    const sites = [...s.templates];
    const offsets = new Uint32Array(sites.length + 1);
    sites.forEach(([, t], k) => { offsets[k + 1] = offsets[k] + (t?.length ?? 0); });
    const values = new BigUint64Array(offsets[sites.length]);
    sites.forEach(([, t], k) => { if (t) values.set(t, offsets[k]); });
    sections.push([T.templateSites, json(sites.map(([site, t]) => [site, t !== undefined]))], [T.templateOffsets, offsets], [T.templateValues, values]);
  }
  let size = HEADER;
  for (const [, v] of sections) size += 16 + pad8(v.byteLength);
  size += 4;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set(INDEX_MAGIC, 0);
  dv.setUint16(8, INDEX_VERSION, true);
  dv.setUint16(10, HEADER, true);
  dv.setUint32(12, sections.length, true);
  dv.setBigUint64(16, POLYNOMIAL, true);
  dv.setUint32(24, s.size, true);
  at = HEADER;
  for (const [tag, v] of sections) {
    dv.setUint32(at, tag, true);
    dv.setUint32(at + 4, v.BYTES_PER_ELEMENT, true);
    dv.setBigUint64(at + 8, BigInt(v.byteLength), true);
    out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength), at + 16);
    at += 16 + pad8(v.byteLength);
  }
  dv.setUint32(at, checksum(out.subarray(0, at)), true);
  return out;
}

/** What `loadIndex` checks beside the format. */
export interface LoadIndexOptions {
  /** Reject an index made with other sketch parameters (E_PARAMS). */
  params?: SketchParams;
}

/** Takes a file's bytes and what to check; returns the state it holds (views of the bytes); wrong magic, version, checksum (E_FORMAT) or parameters (E_PARAMS) are rejected. */
export function decodeIndex(bytes: Uint8Array, options: LoadIndexOptions = {}): IndexState {
  if (!LITTLE_ENDIAN) throw new ResembleError('E_FORMAT', 'loading an index needs a little-endian host');
  if (!(bytes instanceof Uint8Array)) throw new ResembleError('E_FORMAT', 'expected the bytes of a saved index');
  for (let i = 0; i < 8; i++) if (bytes[i] !== INDEX_MAGIC[i]) throw new ResembleError('E_FORMAT', 'not a resemble index (bad magic number)');
  if (bytes.length < HEADER + 4) throw new ResembleError('E_FORMAT', `truncated index: ${bytes.length} bytes is shorter than the header`);
  // Views need 8-byte alignment; copy when the caller's bytes are not aligned.
  const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const dv = new DataView(own.buffer, own.byteOffset, own.byteLength);
  const version = dv.getUint16(8, true);
  if (version !== INDEX_VERSION) {
    throw new ResembleError('E_FORMAT', `index format version ${version} is not supported (this library reads version ${INDEX_VERSION}); rebuild the index with \`resemble index build\``, { version, supported: INDEX_VERSION });
  }
  const end = own.length - 4;
  const crc = dv.getUint32(end, true);
  if (end % 8 !== 0) throw new ResembleError('E_FORMAT', 'corrupt index: its length is not a whole number of sections');
  if (checksum(own.subarray(0, end)) !== crc) throw new ResembleError('E_FORMAT', 'corrupt index: checksum mismatch (truncated or modified file)');
  if (dv.getBigUint64(16, true) !== POLYNOMIAL) throw new ResembleError('E_PARAMS', 'index made with another fingerprint polynomial');
  const n = dv.getUint32(24, true);
  const count = dv.getUint32(12, true);
  const sec = new Map<number, { at: number; bytes: number; width: number }>();
  let at = dv.getUint16(10, true);
  for (let i = 0; i < count; i++) {
    if (at + 16 > end) throw new ResembleError('E_FORMAT', 'corrupt index: section table runs past the end');
    const tag = dv.getUint32(at, true), width = dv.getUint32(at + 4, true), len = Number(dv.getBigUint64(at + 8, true));
    if (at + 16 + len > end) throw new ResembleError('E_FORMAT', `corrupt index: section ${tag} runs past the end`);
    sec.set(tag, { at: at + 16, bytes: len, width });
    at += 16 + pad8(len);
  }
  const raw = (tag: number): { at: number; bytes: number; width: number } => {
    const s = sec.get(tag);
    if (!s) throw new ResembleError('E_FORMAT', `corrupt index: section ${tag} missing`);
    return s;
  };
  const take = <A extends View>(tag: number, Ctor: { new (b: ArrayBufferLike, o: number, l: number): A; BYTES_PER_ELEMENT: number }, length?: number): A => {
    const s = raw(tag);
    if (s.width !== Ctor.BYTES_PER_ELEMENT || s.bytes % s.width !== 0) throw new ResembleError('E_FORMAT', `corrupt index: section ${tag} has ${s.width}-byte elements`);
    const len = s.bytes / s.width;
    if (length !== undefined && len !== length) throw new ResembleError('E_FORMAT', `corrupt index: section ${tag} holds ${len} elements, expected ${length}`);
    return new Ctor(own.buffer, own.byteOffset + s.at, len);
  };
  const text = (tag: number) => new TextDecoder().decode(take(tag, Uint8Array));
  const params = JSON.parse(text(T.params)) as SketchParams & { seed: unknown };
  params.seed = BigInt(String(params.seed));
  if (options.params && !sameParams(params, options.params)) {
    throw new ResembleError('E_PARAMS', `index made with different sketch parameters: ${paramDiff(params, options.params)}`, { params: paramDiff(params, options.params) });
  }
  const opts = resolveIndexOptions(JSON.parse(text(T.options)));
  const offsets = take(T.offsets, Uint32Array, n + 1);
  const values = take(T.values, BigUint64Array);
  if (offsets[n] !== values.length) throw new ResembleError('E_FORMAT', 'corrupt index: offsets do not match the value count');
  const urlOffsets = take(T.urlOffsets, Uint32Array, n + 1);
  const urlBytes = take(T.urlBytes, Uint8Array);
  const present = take(T.urlPresent, Uint8Array, n);
  const dec = new TextDecoder();
  const urls: (string | undefined)[] = new Array(n);
  for (let d = 0; d < n; d++) urls[d] = present[d] ? dec.decode(urlBytes.subarray(urlOffsets[d], urlOffsets[d + 1])) : undefined;
  const roots = take(T.roots, Int32Array, n);
  for (let d = 0; d < n; d++) {
    const r = roots[d];
    if (r < 0 || r >= n || roots[r] !== r) throw new ResembleError('E_FORMAT', `corrupt index: cluster root of document ${d} is not a root`);
  }
  let postings: PostingLists | undefined;
  let baseEnd = 0;
  if (sec.has(T.postMeta)) {
    const meta = take(T.postMeta, Uint32Array, 3);
    baseEnd = meta[1];
    const lists = meta[2];
    postings = {
      partitionBits: meta[0], lists, docs: take(T.postDocs, Uint32Array), listStart: take(T.postStart, Uint32Array, lists + 1),
      keyHi: take(T.postKeyHi, Uint32Array, lists), keyLo: take(T.postKeyLo, Uint32Array, lists),
      partStart: take(T.postParts, Uint32Array, (1 << meta[0]) + 1), ignoredShingles: 0, ignoredPostings: 0,
    };
    if (baseEnd > n || postings.listStart[lists] !== postings.docs.length) throw new ResembleError('E_FORMAT', 'corrupt index: postings do not match');
  }
  const state: IndexState = {
    params, options: opts, size: n, values, offsets, cardinality: take(T.cardinality, Float64Array, n), tokens: take(T.tokens, Uint32Array, n),
    modulusLog2: take(T.modulusLog2, Uint8Array, n), rawFp: take(T.rawFp, BigUint64Array, n), lexicalFp: take(T.lexicalFp, BigUint64Array, n),
    shingleFp: take(T.shingleFp, BigUint64Array, n), dates: take(T.dates, Float64Array, n), removed: take(T.removed, Uint8Array, n),
    roots, urls, postings, baseEnd, staleRemovals: 0, templates: sec.has(T.templateSites) ? siteTables(JSON.parse(text(T.templateSites)), take(T.templateOffsets, Uint32Array), take(T.templateValues, BigUint64Array)) : undefined,
  };
  return state;
}

/** The sites' template tables from their sections (copies: the tables outlive the file's bytes). */
function siteTables(sites: unknown, offsets: Uint32Array, values: BigUint64Array): SiteTables {
  const bad = () => new ResembleError('E_FORMAT', 'corrupt index: the template sections do not match');
  if (!Array.isArray(sites) || offsets.length !== sites.length + 1 || offsets[sites.length] !== values.length) throw bad();
  const out: SiteTables = new Map();
  sites.forEach((e, k) => {
    if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'boolean' || offsets[k + 1] < offsets[k]) throw bad();
    out.set(e[0], e[1] ? values.slice(offsets[k], offsets[k + 1]) : undefined);
  });
  return out;
}

function pad8(n: number): number {
  return Math.ceil(n / 8) * 8; // not `& ~7`: sections may pass 2^31 bytes
}
