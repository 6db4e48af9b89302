import { ResembleError } from '../errors.js';
import { paramDiff, sameParams, type SketchParams } from './options.js';
import { superShingles } from './supershingles.js';

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
  /** Whole-document fingerprints (identical bytes, lexically equivalent, shingle-equivalent); absent or 0n when unknown. */
  rawFp?: bigint;
  lexicalFp?: bigint;
  shingleFp?: bigint;
  /** The k-value signature for LSH banding (when params.k > 0). */
  signature?: BigUint64Array;
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
 * What a sketch set tells of each document besides its values: row lengths (offsets), the
 * per-document columns and the errors. A `SketchSet` is one; so are sketches whose rows were
 * written to disk as they were made (the DuckDB engine's), which keep only these columns in memory.
 */
export interface SketchDocuments {
  readonly size: number;
  readonly params: SketchParams;
  readonly errors: readonly SketchError[];
  readonly offsets: Uint32Array;
  readonly cardinality: Float64Array;
  readonly tokens: Uint32Array;
  readonly modulusLog2: Uint8Array;
  readonly rawFp: BigUint64Array;
  readonly lexicalFp: BigUint64Array;
  readonly shingleFp: BigUint64Array;
  readonly templateTokens?: Uint32Array;
  /** content 'main': true when page i had too little content (see SketchSet.tooLittleContent). */
  tooLittleContent(i: number): boolean;
  /** content 'main': the share of page i's tokens that was template (see SketchSet.templateShare). */
  templateShare(i: number): number;
}

/**
 * Takes a set's row offsets and cardinalities and a DocId; returns true when the row is that of a content page with too
 * little content (or of a rejected page): empty, with cardinality 0, which no sketched page has (a
 * page shorter than w counts its one short shingle, even where its MOD_m row is empty).
 */
export function thinRow(offsets: ArrayLike<number>, cardinality: ArrayLike<number>, i: number): boolean {
  return offsets[i + 1] === offsets[i] && !(cardinality[i] > 0);
}

/** Takes a set's columns and a DocId; returns SketchSet.tooLittleContent for them (one definition for every SketchDocuments). */
export function tooLittleContentOf(c: Omit<SketchDocuments, 'tooLittleContent' | 'templateShare'>, i: number): boolean {
  return c.params.content === 'main' && c.tokens[i] < c.params.minContent! && thinRow(c.offsets, c.cardinality, i) && !c.errors.some((e) => e.index === i);
}

/** Takes a set's columns and a DocId; returns SketchSet.templateShare for them. */
export function templateShareOf(c: Pick<SketchDocuments, 'tokens' | 'templateTokens'>, i: number): number {
  const t = c.templateTokens?.[i] ?? 0;
  return t === 0 ? 0 : t / (t + c.tokens[i]);
}

/**
 * Many sketches in columns (CSR): doc i's sketch is values[offsets[i]..offsets[i+1]).
 * Whole-document fingerprints tell identical (rawFp), lexically equivalent (lexicalFp) and
 * shingle-equivalent (shingleFp) documents apart before any pair is counted.
 */
export class SketchSet implements SketchColumns, SketchDocuments {
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
      rawFp: this.rawFp[i],
      lexicalFp: this.lexicalFp[i],
      shingleFp: this.shingleFp[i],
      ...(this.params.k > 0 && this.signature ? { signature: this.signatureOf(i) } : {}),
    };
  }

  /**
   * A set of these sketches, one row each (copied), so a `Sketch` goes wherever a set does. They
   * must share their parameters (E_PARAMS otherwise); fingerprints a sketch lacks are 0n (unknown).
   * With params.k > 0 each needs its signature; super-shingles are recomputed from the values.
   */
  static from(sketches: readonly Sketch[]): SketchSet {
    if (!Array.isArray(sketches) || sketches.length === 0) throw new ResembleError('E_INPUT', 'SketchSet.from: expected a non-empty array of sketches');
    const n = sketches.length;
    sketches.forEach((x, i) => checkSketch(x, `SketchSet.from: sketch ${i}`));
    const params = sketches[0].params;
    const offsets = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const p = sketches[i].params;
      if (p !== params && !sameParams(p, params)) throw new ResembleError('E_PARAMS', `SketchSet.from: sketch ${i} made with different parameters: ${paramDiff(p, params)}`, { index: i });
      offsets[i + 1] = offsets[i] + sketches[i].values.length;
    }
    const values = new BigUint64Array(offsets[n]);
    const cardinality = new Float64Array(n), tokens = new Uint32Array(n), modulusLog2 = new Uint8Array(n);
    const rawFp = new BigUint64Array(n), lexicalFp = new BigUint64Array(n), shingleFp = new BigUint64Array(n);
    for (let i = 0; i < n; i++) {
      const x = sketches[i];
      values.set(x.values, offsets[i]);
      cardinality[i] = x.cardinality; tokens[i] = x.tokens ?? 0; modulusLog2[i] = x.modulusLog2 ?? 0;
      rawFp[i] = x.rawFp ?? 0n; lexicalFp[i] = x.lexicalFp ?? 0n; shingleFp[i] = x.shingleFp ?? 0n;
    }
    let signature: BigUint64Array | undefined;
    if (params.k > 0) {
      signature = new BigUint64Array(n * params.k);
      for (let i = 0; i < n; i++) {
        const sig = sketches[i].signature;
        if (!(sig instanceof BigUint64Array) || sig.length !== params.k) throw new ResembleError('E_INPUT', `SketchSet.from: sketch ${i} has no ${params.k}-value signature (its params say k = ${params.k})`, { index: i });
        signature.set(sig, i * params.k);
      }
    }
    const columns = { values, offsets, cardinality, tokens, modulusLog2, rawFp, lexicalFp, shingleFp, signature };
    return new SketchSet(params, params.superShingle > 0 ? { ...columns, superShingles: superShingles({ values, offsets }, params.superShingle) } : columns);
  }

  /** The k-value signature of document i (empty unless params.k > 0). */
  signatureOf(i: number): BigUint64Array {
    const k = this.params.k;
    return this.signature ? this.signature.subarray(i * k, i * k + k) : new BigUint64Array(0);
  }

  /** content 'main': true when page i had fewer content tokens than params.minContent and its row was left empty; its lexical fingerprint is its whole text's and its shingle fingerprint its title and content's (it joins copies of its whole text, or of its title and content, only). Its cardinality is 0, which no sketched page has (a page shorter than w has its one short shingle), even a page sketched whole whose MOD_m row is empty. */
  tooLittleContent(i: number): boolean {
    return tooLittleContentOf(this, i);
  }

  /** content 'main': the share of page i's tokens (title aside) that was template, 0..1 (0 with content 'page'). */
  templateShare(i: number): number {
    return templateShareOf(this, i);
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

/** True for a single `Sketch` (a row), false for columns of many (a `SketchSet`). */
export function isSketch(x: unknown): x is Sketch {
  return typeof x === 'object' && x !== null && 'values' in x && !('offsets' in x);
}

/** Checks the shape of a sketch given from outside (E_INPUT naming `what`); its parameters are checked where they are compared. */
export function checkSketch(x: unknown, what: string): asserts x is Sketch {
  const bad = (m: string): never => { throw new ResembleError('E_INPUT', `${what}: ${m}`); };
  if (typeof x !== 'object' || x === null) bad(`expected a sketch (from sketch() or sketchItems()), got ${x === null ? 'null' : typeof x}`);
  const s = x as Partial<Sketch>;
  if (!(s.values instanceof BigUint64Array)) bad('expected a sketch whose values are a BigUint64Array');
  if (typeof s.params !== 'object' || s.params === null) bad('expected a sketch with its params');
  if (typeof s.cardinality !== 'number' || !(s.cardinality >= 0)) bad(`expected a cardinality ≥ 0, got ${String(s.cardinality)}`);
  const v = s.values!;
  for (let i = 1; i < v.length; i++) if (!(v[i - 1] < v[i])) bad(`sketch values must ascend and be distinct (at ${i})`);
}
