import { ResembleError } from '../errors.js';
import type { SketchParams } from './options.js';

/** One document's sketch: a view of one row of a SketchSet (no copy). */
export interface Sketch {
  params: SketchParams;
  /** The selected shingle values, ascending and distinct. */
  values: BigUint64Array;
  /** Distinct shingles in the document: exact for mod/adaptive and for min rows with fewer than s values; a KMV estimate otherwise. */
  cardinality: number;
  /** Adaptive sketches: the exponent i of the modulus 2^i; 0 otherwise. */
  modulusLog2: number;
  /** Canonical tokens in the document. */
  tokens: number;
}

/** Per-document columns beside the sketch values; all indexed by DocId. */
export interface SketchColumns {
  values: BigUint64Array;
  offsets: Uint32Array;
  cardinality: Float64Array;
  tokens: Uint32Array;
  modulusLog2: Uint8Array;
  rawFp: BigUint64Array;
  lexicalFp: BigUint64Array;
  shingleFp: BigUint64Array;
  signature?: BigUint64Array;
  superShingles?: { values: BigUint64Array; offsets: Uint32Array };
  /** content 'main': tokens of each page left out as template (its host's template blocks and link-heavy blocks). */
  templateTokens?: Uint32Array;
}

/** A document that could not be sketched: its row is empty and it is reported here. */
export interface SketchError {
  index: number;
  message: string;
}

/**
 * Many sketches in columns (CSR): doc i's sketch is values[offsets[i]..offsets[i+1]).
 * Whole-document fingerprints tell identical (rawFp), lexically equivalent (lexicalFp) and
 * shingle-equivalent (shingleFp) documents apart before any pair is counted.
 */
export class SketchSet implements SketchColumns {
  readonly size: number;
  readonly values: BigUint64Array;
  readonly offsets: Uint32Array;
  readonly cardinality: Float64Array;
  readonly tokens: Uint32Array;
  readonly modulusLog2: Uint8Array;
  readonly rawFp: BigUint64Array;
  readonly lexicalFp: BigUint64Array;
  readonly shingleFp: BigUint64Array;
  readonly signature?: BigUint64Array;
  readonly superShingles?: { values: BigUint64Array; offsets: Uint32Array };
  readonly templateTokens?: Uint32Array;

  constructor(readonly params: SketchParams, c: SketchColumns, readonly errors: SketchError[] = []) {
    this.size = c.offsets.length - 1;
    this.values = c.values;
    this.offsets = c.offsets;
    this.cardinality = c.cardinality;
    this.tokens = c.tokens;
    this.modulusLog2 = c.modulusLog2;
    this.rawFp = c.rawFp;
    this.lexicalFp = c.lexicalFp;
    this.shingleFp = c.shingleFp;
    this.signature = c.signature;
    this.superShingles = c.superShingles;
    this.templateTokens = c.templateTokens;
    const n = this.size;
    if (n < 0 || c.cardinality.length !== n || c.tokens.length !== n || c.rawFp.length !== n || c.offsets[n] !== c.values.length
      || (c.signature && c.signature.length !== n * params.k) || (c.templateTokens && c.templateTokens.length !== n)
      || (params.content === 'main') !== (c.templateTokens !== undefined)) {
      throw new ResembleError('E_FORMAT', `inconsistent SketchSet columns for ${n} documents`);
    }
  }

  /** The sketch of document i (a view). */
  get(i: number): Sketch {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) throw new ResembleError('E_OPTION', `expected document index 0..${this.size - 1}, got ${i}`);
    return {
      params: this.params,
      values: this.values.subarray(this.offsets[i], this.offsets[i + 1]),
      cardinality: this.cardinality[i],
      modulusLog2: this.modulusLog2[i],
      tokens: this.tokens[i],
    };
  }

  /** The k-value signature of document i (empty unless params.k > 0). */
  signatureOf(i: number): BigUint64Array {
    const k = this.params.k;
    return this.signature ? this.signature.subarray(i * k, i * k + k) : new BigUint64Array(0);
  }

  /** content 'main': true when page i had fewer content tokens than params.minContent (its row is empty: it joins byte-identical copies only). */
  tooLittleContent(i: number): boolean {
    return this.params.content === 'main' && this.tokens[i] < this.params.minContent! && !this.errors.some((e) => e.index === i);
  }

  /** content 'main': the share of page i's tokens (title aside) that was template, 0..1 (0 with content 'page'). */
  templateShare(i: number): number {
    const t = this.templateTokens?.[i] ?? 0;
    return t === 0 ? 0 : t / (t + this.tokens[i]);
  }

  /** Bytes held by the columns. */
  get byteLength(): number {
    let b = 0;
    for (const a of [this.values, this.offsets, this.cardinality, this.tokens, this.modulusLog2, this.rawFp, this.lexicalFp, this.shingleFp, this.signature, this.superShingles?.values, this.superShingles?.offsets, this.templateTokens]) b += a?.byteLength ?? 0;
    return b;
  }
}

/** KMV estimate of a set's size from its s smallest values (uniform 64-bit): (s − 1) / (max / 2^64). */
export function kmvCardinality(count: number, s: number, max: bigint): number {
  if (count < s) return count;
  return ((s - 1) * 2 ** 64) / (Number(max) + 1);
}
