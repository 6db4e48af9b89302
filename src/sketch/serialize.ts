import { ResembleError } from '../errors.js';
import { POLYNOMIAL } from './rabin.js';
import { resolveSketchOptions, sameParams, paramDiff, type SketchOptions, type SketchParams } from './options.js';
import { SketchSet } from './sketch-set.js';

/**
 * The SketchSet binary format, versions 1 (whole pages) and 2 (content sketches) (docs/FORMATS.md), little-endian:
 *   0  magic "RSKS" · 4 u16 version · 6 u16 header bytes (64, or 72 for content sketches)
 *   8  u64 fingerprint polynomial (low 64 bits) · 16 u64 seed
 *  24  u8 w · u8 unit (0 word, 1 char) · u8 markup (0 text, 1 html) · u8 kind (0 min, 1 mod, 2 adaptive)
 *  28  u32 s · 32 u32 m · 36 u32 k · 40 u32 super-shingle size · 44 u32 documents n · 48 u64 values · 56 u64 super values
 *  64  offsets u32[n+1] · pad to 8 · values u64[] · cardinality f64[n] · rawFp, lexicalFp, shingleFp u64[n]
 *      · tokens u32[n] · modulusLog2 u8[n] · pad to 8 · signature u64[n·k] · super offsets u32[n+1] · pad · super values u64[]
 * Version 2, content sketches (content 'main'), has a 72-byte header: 64 u8 content (1 main) · 65 u8 0 ·
 * 66 u16 link density per mille · 68 u32 min content; and after everything above, templateTokens u32[n].
 * Whole-page sketches are still written as version 1, byte for byte as before content mode.
 */
export const SKETCH_MAGIC = 0x534b5352; // "RSKS" read as a little-endian u32
/** The current version of the SketchSet format (2: content sketches; whole pages are still written as 1). */
export const SKETCH_VERSION = 2;
const HEADER_PAGE = 64;
const HEADER_MAIN = 72;
const pad8 = (n: number) => (n + 7) & ~7;

/** Serializes a SketchSet (parameters in the header). */
export function serializeSketchSet(set: SketchSet): Uint8Array {
  const p = set.params, n = set.size;
  const ss = set.superShingles;
  const main = p.content === 'main';
  const HEADER = main ? HEADER_MAIN : HEADER_PAGE;
  const size = HEADER + pad8((n + 1) * 4) + set.values.length * 8 + n * 8 * 4 + pad8(n * 4 + n)
    + (set.signature?.length ?? 0) * 8 + (ss ? pad8((n + 1) * 4) + ss.values.length * 8 : 0) + (main ? n * 4 : 0);
  const buf = new ArrayBuffer(size);
  const dv = new DataView(buf);
  dv.setUint32(0, SKETCH_MAGIC, true);
  dv.setUint16(4, main ? SKETCH_VERSION : 1, true);
  dv.setUint16(6, HEADER, true);
  dv.setBigUint64(8, POLYNOMIAL, true);
  dv.setBigUint64(16, p.seed, true);
  dv.setUint8(24, p.w);
  dv.setUint8(25, p.unit === 'char' ? 1 : 0);
  dv.setUint8(26, p.markup === 'html' ? 1 : 0);
  dv.setUint8(27, ['min', 'mod', 'adaptive'].indexOf(p.kind));
  dv.setUint32(28, p.s, true);
  dv.setUint32(32, p.m >>> 0, true);
  dv.setUint32(36, p.k, true);
  dv.setUint32(40, p.superShingle, true);
  dv.setUint32(44, n, true);
  dv.setBigUint64(48, BigInt(set.values.length), true);
  dv.setBigUint64(56, BigInt(ss?.values.length ?? 0), true);
  if (main) {
    dv.setUint8(64, 1);
    dv.setUint16(66, p.linkDensity!, true);
    dv.setUint32(68, p.minContent!, true);
  }
  let at = HEADER;
  const put = (a: ArrayBufferView & { length: number; BYTES_PER_ELEMENT: number }) => {
    new Uint8Array(buf, at, a.length * a.BYTES_PER_ELEMENT).set(new Uint8Array(a.buffer, a.byteOffset, a.length * a.BYTES_PER_ELEMENT));
    at += a.length * a.BYTES_PER_ELEMENT;
  };
  put(set.offsets); at = pad8(at);
  put(set.values); put(set.cardinality); put(set.rawFp); put(set.lexicalFp); put(set.shingleFp);
  put(set.tokens); put(set.modulusLog2); at = pad8(at);
  if (set.signature) put(set.signature);
  if (ss) { put(ss.offsets); at = pad8(at); put(ss.values); }
  if (main) put(set.templateTokens!);
  return new Uint8Array(buf);
}

/** Reads a serialized SketchSet; with `expect`, rejects one made with other parameters (E_PARAMS). */
export function deserializeSketchSet(bytes: Uint8Array, expect?: SketchOptions | SketchParams): SketchSet {
  if (!(bytes instanceof Uint8Array)) throw new ResembleError('E_FORMAT', 'expected the bytes of a serialized SketchSet');
  if (bytes.length < HEADER_PAGE) throw new ResembleError('E_FORMAT', `not a resemble sketch file: ${bytes.length} bytes is shorter than the ${HEADER_PAGE}-byte header`);
  const own = bytes.byteOffset % 8 === 0 ? bytes : bytes.slice();
  const dv = new DataView(own.buffer, own.byteOffset, own.byteLength);
  if (dv.getUint32(0, true) !== SKETCH_MAGIC) throw new ResembleError('E_FORMAT', 'not a resemble sketch file (bad magic number)');
  const version = dv.getUint16(4, true);
  if (version !== SKETCH_VERSION && version !== 1) throw new ResembleError('E_FORMAT', `sketch format version ${version} is not supported (this library reads versions 1 and ${SKETCH_VERSION})`, { version });
  const HEADER = dv.getUint16(6, true);
  const main = version === 2;
  if (main && (bytes.length < HEADER_MAIN || dv.getUint8(64) !== 1)) throw new ResembleError('E_FORMAT', 'corrupt sketch file: version 2 without a content header');
  if (HEADER !== (main ? HEADER_MAIN : HEADER_PAGE) || bytes.length < HEADER) throw new ResembleError('E_FORMAT', `corrupt sketch file: header of ${HEADER} bytes`);
  if (dv.getBigUint64(8, true) !== POLYNOMIAL) throw new ResembleError('E_PARAMS', 'sketches made with another fingerprint polynomial');
  const kinds = ['min', 'mod', 'adaptive'] as const;
  const params: SketchParams = {
    seed: dv.getBigUint64(16, true),
    w: dv.getUint8(24),
    unit: dv.getUint8(25) === 1 ? 'char' : 'word',
    markup: dv.getUint8(26) === 1 ? 'html' : 'text',
    kind: kinds[dv.getUint8(27)] ?? 'min',
    s: dv.getUint32(28, true),
    m: dv.getUint32(32, true) || (dv.getUint8(27) === 1 ? 2 ** 32 : 0),
    k: dv.getUint32(36, true),
    superShingle: dv.getUint32(40, true),
  };
  if (main) {
    params.content = 'main';
    params.linkDensity = dv.getUint16(66, true);
    params.minContent = dv.getUint32(68, true);
  }
  if (expect) {
    const want = 'unit' in expect && 'superShingle' in expect && typeof (expect as SketchParams).s === 'number' && 'seed' in expect && typeof expect.seed === 'bigint' && 'markup' in expect && 'kind' in expect && 'w' in expect && 'k' in expect && 'm' in expect
      ? (expect as SketchParams) : resolveSketchOptions(expect as SketchOptions);
    if (!sameParams(params, want)) throw new ResembleError('E_PARAMS', `sketches made with different parameters: ${paramDiff(params, want)}`);
  }
  const n = dv.getUint32(44, true);
  const nv = Number(dv.getBigUint64(48, true));
  const nss = Number(dv.getBigUint64(56, true));
  let at = HEADER;
  const take = <T>(Ctor: { new (b: ArrayBuffer, o: number, l: number): T; BYTES_PER_ELEMENT: number }, count: number): T => {
    const end = at + count * Ctor.BYTES_PER_ELEMENT;
    if (end > own.byteLength) throw new ResembleError('E_FORMAT', `truncated sketch file: needs more than ${own.byteLength} bytes`);
    const view = new Ctor(own.buffer as ArrayBuffer, own.byteOffset + at, count);
    at = end;
    return view;
  };
  const offsets = take(Uint32Array, n + 1); at = pad8(at);
  const values = take(BigUint64Array, nv);
  const cardinality = take(Float64Array, n);
  const rawFp = take(BigUint64Array, n), lexicalFp = take(BigUint64Array, n), shingleFp = take(BigUint64Array, n);
  const tokens = take(Uint32Array, n);
  const modulusLog2 = take(Uint8Array, n); at = pad8(at);
  const signature = params.k > 0 ? take(BigUint64Array, n * params.k) : undefined;
  let superShingles;
  if (params.superShingle > 0) {
    const so = take(Uint32Array, n + 1); at = pad8(at);
    superShingles = { offsets: so, values: take(BigUint64Array, nss) };
  }
  const templateTokens = main ? take(Uint32Array, n) : undefined;
  if (offsets[n] !== nv) throw new ResembleError('E_FORMAT', 'corrupt sketch file: offsets do not match the value count');
  return new SketchSet(params, { values, offsets, cardinality, tokens, modulusLog2, rawFp, lexicalFp, shingleFp, signature, superShingles, templateTokens });
}
