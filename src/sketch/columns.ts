import { ResembleError } from '../errors.js';
import type { SketchParams } from './options.js';
import type { SketchColumns } from './sketch-set.js';

/** Sketch kinds: MIN_s (bottom-s), MOD_m (values ≡ 0 mod m), adaptive MOD_{2^i} per document. */
export type SketchKind = SketchParams['kind'];
/** The parameters a sketch set was made with (the core's `SketchSet.params`). */
export type ClusterParams = SketchParams;

/** The columns every sketch row has. */
type Rows = 'values' | 'offsets' | 'cardinality';
/** The columns a clustering reads when they are there. */
type OptionalColumns = 'rawFp' | 'lexicalFp' | 'shingleFp' | 'modulusLog2' | 'signature' | 'superShingles';

/**
 * The SketchSet columns clustering reads, derived from the sketch's own `SketchColumns` (one
 * definition of the columns); a core `SketchSet` satisfies it as it is. Row i is
 * `values[offsets[i]..offsets[i+1])`, ascending and distinct; the fingerprint columns are optional
 * so tests and other producers can hand in only what they have.
 */
export type ClusterColumns = { readonly size: number; readonly params: ClusterParams }
  & Readonly<Pick<SketchColumns, Rows>> & Readonly<Partial<Pick<SketchColumns, OptionalColumns>>>;

/**
 * The columns clustering reads besides the sketch values: size, parameters, row lengths (offsets),
 * cardinalities and the fingerprints. ClusterColumns has them; so do sketches whose rows are kept
 * on disk, which estimate pairs through a `PairEstimator` instead.
 */
export type RowColumns = { readonly size: number; readonly params: ClusterParams }
  & Readonly<Pick<SketchColumns, 'offsets' | 'cardinality'>> & Readonly<Partial<Pick<SketchColumns, 'rawFp' | 'lexicalFp' | 'shingleFp' | 'modulusLog2'>>>;

/**
 * Estimates of document pairs by DocId (a `SetEstimator` over columns in memory, or one reading
 * rows back from disk): `pair(a, b)` returns the resemblance and leaves [resemblance, containment
 * of a in b, of b in a, shared values] in `out`.
 */
export interface PairEstimator {
  /** The columns whose rows it estimates (the final phase reads row lengths from them). */
  readonly set: Pick<RowColumns, 'offsets'>;
  readonly out: Float64Array;
  /** Takes two DocIds; returns their estimated resemblance and leaves the four values in `out`. */
  pair(a: number, b: number): number;
  /**
   * Optional, for estimators whose rows cost less read together (rows on disk): takes pairs a[i],
   * b[i] of DocIds; writes each pair's estimates (those `pair` leaves in `out`) into `into`.
   */
  many?(a: Uint32Array, b: Uint32Array, into: PairEstimates): void;
}

/** Estimates of many pairs, one column each: pair i's resemblance, containments (a in b, b in a) and shared values. */
export interface PairEstimates {
  resemblance: Float64Array;
  containmentAB: Float64Array;
  containmentBA: Float64Array;
  shared: Uint32Array;
}

/** True on little-endian hosts, where word 2i of a u64 column is the low half of value i. */
export const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Index of the low / high 32-bit word of a u64 inside its pair of words. */
export const LO = LITTLE_ENDIAN ? 0 : 1;
export const HI = LITTLE_ENDIAN ? 1 : 0;

/** A Uint32Array over the same bytes as a u64 column: value i is words 2i, 2i+1 (see LO/HI). */
export function words(values: BigUint64Array): Uint32Array {
  return new Uint32Array(values.buffer, values.byteOffset, values.length * 2);
}

/** Checks that columns are consistent (lengths, CSR offsets, kind; values when given); throws E_INPUT otherwise. */
export function checkColumns(set: RowColumns & Partial<Pick<ClusterColumns, 'values' | 'signature' | 'superShingles'>>, where: string): void {
  const n = set.size;
  const bad = (msg: string): never => { throw new ResembleError('E_INPUT', `${where}: ${msg}`, { where }); };
  if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) bad(`expected a document count 0..2^31-1, got ${n}`);
  const kind = set.params?.kind;
  if (kind !== 'min' && kind !== 'mod' && kind !== 'adaptive') bad(`expected params.kind min|mod|adaptive, got ${String(kind)}`);
  if (kind === 'min' && !(typeof set.params.s === 'number' && set.params.s >= 1)) bad(`expected params.s ≥ 1 for a min sketch, got ${String(set.params.s)}`);
  if (set.offsets.length !== n + 1) bad(`expected ${n + 1} offsets, got ${set.offsets.length}`);
  // Sketches without their values in memory (rows on disk) have offsets only: row lengths.
  if (set.offsets[0] !== 0 || (set.values !== undefined && set.offsets[n] !== set.values.length)) bad('offsets must start at 0 and end at values.length');
  for (let i = 0; i < n; i++) if (set.offsets[i + 1] < set.offsets[i]) bad(`offsets decrease at document ${i}`);
  if (set.cardinality.length !== n) bad(`expected ${n} cardinalities, got ${set.cardinality.length}`);
  for (const name of ['rawFp', 'lexicalFp', 'shingleFp'] as const) {
    const col = set[name];
    if (col && col.length !== n) bad(`expected ${n} values in ${name}, got ${col.length}`);
  }
  if (kind === 'adaptive' && (!set.modulusLog2 || set.modulusLog2.length !== n)) bad(`expected ${n} modulusLog2 exponents for an adaptive sketch`);
  if (set.superShingles) {
    const ss = set.superShingles;
    if (ss.offsets.length !== n + 1 || ss.offsets[n] !== ss.values.length) bad('superShingles offsets do not match the document count');
  }
  if (set.signature) {
    const k = set.params.k;
    if (typeof k !== 'number' || k < 1 || set.signature.length !== n * k) bad(`expected ${n} × params.k signature values, got ${set.signature.length} (k=${String(k)})`);
  }
}
