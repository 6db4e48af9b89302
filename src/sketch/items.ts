// Sketches of documents that are sets of strings (tags, tokens, n-grams a user made), as
// datasketch's MinHash.update(b) builds them. Each item is one shingle, taken verbatim (no
// markup, no case folding): its shingle fingerprint is that of a one-token shingle whose token
// fingerprint is Rabin(item bytes), so sketchItems(words) equals sketch(words.join(' '),
// { w: 1, markup: 'text' }) when the words are already canonical tokens, and the same estimators,
// index and clustering apply. Hashing runs in WebAssembly, many items per call.
import { ResembleError, optionError } from '../errors.js';
import { checked } from '../wasm/kernels.js';
import { withArena } from '../wasm/instance.js';
import { byteBound, checkDoc, writeDoc, type DocInput } from './input.js';
import { resolveSketchOptions, type SketchOptions, type SketchParams } from './options.js';
import { kmvCardinality, type Sketch } from './sketch-set.js';

/** Items hashed per WebAssembly call (and their bytes, at most). */
const BATCH_ITEMS = 4096;
const BATCH_BYTES = 1 << 20;
const M64 = (1n << 64n) - 1n;

/** The parameters of item sketches: w 1 and markup 'text' (the defaults here); other w, unit or markup are rejected. */
export function resolveItemOptions(options: SketchOptions = {}): SketchParams {
  if (options === null || typeof options !== 'object') throw optionError('options', 'an object', options);
  const p = resolveSketchOptions({ ...options, w: options.w ?? 1, markup: options.markup ?? 'text' });
  if (p.w !== 1) throw optionError('w', '1 for item sketches (each item is one shingle)', p.w);
  if (p.markup !== 'text') throw optionError('markup', "'text' for item sketches (items are taken verbatim)", p.markup);
  if (p.unit !== 'word') throw optionError('unit', "'word' for item sketches (each item is one token)", p.unit);
  return p;
}

/**
 * A sketch built item by item, like datasketch's `MinHash().update(b)`: `update` takes a string
 * (its UTF-8), bytes, or an array of either; `digest()` gives the `Sketch` of every item so far
 * (the builder may go on). Options are validated here, at construction.
 */
export class SketchBuilder {
  readonly params: SketchParams;
  private pending: DocInput[] = [];
  private pendingBytes = 0;
  private values = new BigUint64Array(256);
  private count = 0;
  private items = 0;

  constructor(options: SketchOptions = {}) {
    this.params = resolveItemOptions(options);
  }

  /** Adds one item or an array of items. */
  update(item: DocInput | readonly DocInput[]): this {
    const list = Array.isArray(item) ? item : [item];
    for (let i = 0; i < list.length; i++) {
      const x = list[i] as DocInput;
      const bad = checkDoc(x);
      if (bad) throw new ResembleError('E_INPUT', `SketchBuilder.update: item ${this.items + this.pending.length}: ${bad}`, { index: this.items + this.pending.length });
      this.pending.push(x);
      this.pendingBytes += byteBound(x);
      if (this.pending.length >= BATCH_ITEMS || this.pendingBytes >= BATCH_BYTES) this.flush();
    }
    return this;
  }

  /** The sketch of every item added so far. */
  digest(): Sketch {
    this.flush();
    return itemSketch(this.values.subarray(0, this.count), this.items, this.params);
  }

  /** Hashes the pending items (one batch of WebAssembly calls) into their permuted shingle values. */
  private flush(): void {
    const n = this.pending.length;
    if (n === 0) return;
    if (this.count + n > this.values.length) {
      let cap = this.values.length;
      while (cap < this.count + n) cap *= 2;
      const grown = new BigUint64Array(cap);
      grown.set(this.values.subarray(0, this.count));
      this.values = grown;
    }
    hashItems(this.pending, this.params.seed, this.values, this.count);
    this.count += n;
    this.items += n;
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/** The sketch of a set of items (strings as UTF-8, or bytes); repeats count once. */
export function sketchItems(items: readonly DocInput[], options?: SketchOptions): Sketch {
  if (!Array.isArray(items)) throw new ResembleError('E_INPUT', `sketchItems: expected an array of strings or Uint8Arrays, got ${items === null ? 'null' : typeof items}`);
  return new SketchBuilder(options).update(items).digest();
}

/**
 * π(Rabin(BE64(Rabin(item)))) for each item, written to out[at…]: the token fingerprint, the
 * one-token shingle over it, the permutation — two batched Rabin calls and one mix call.
 */
function hashItems(items: readonly DocInput[], seed: bigint, out: BigUint64Array, at: number): void {
  const n = items.length;
  withArena((mem, k) => {
    let bytes = 0;
    for (const x of items) bytes += byteBound(x);
    const inPtr = mem.alloc(bytes);
    const offPtr = mem.alloc((n + 1) * 4);
    let pos = 0;
    for (let i = 0; i < n; i++) {
      mem.u32[(offPtr >>> 2) + i] = pos;
      pos += writeDoc(mem, items[i], inPtr + pos);
    }
    mem.u32[(offPtr >>> 2) + n] = pos;
    const tokPtr = mem.alloc(n * 8);
    checked('rb_fingerprint_batch', k.rb_fingerprint_batch(inPtr, offPtr, n, tokPtr));
    // The shingle of one token: Rabin of its fingerprint as 8 big-endian bytes.
    const bePtr = mem.alloc(n * 8), beOff = mem.alloc((n + 1) * 4);
    const dv = new DataView(mem.u8.buffer);
    const w = mem.u32;
    for (let i = 0; i < n; i++) {
      const lo = w[(tokPtr >>> 2) + 2 * i], hi = w[(tokPtr >>> 2) + 2 * i + 1];
      dv.setUint32(bePtr + 8 * i, hi, false);
      dv.setUint32(bePtr + 8 * i + 4, lo, false);
      w[(beOff >>> 2) + i] = 8 * i;
    }
    w[(beOff >>> 2) + n] = 8 * n;
    const valPtr = mem.alloc(n * 8);
    checked('rb_fingerprint_batch', k.rb_fingerprint_batch(bePtr, beOff, n, valPtr));
    checked('mx_mix', k.mx_mix(valPtr, n, seed));
    out.set(mem.u64.subarray(valPtr >>> 3, (valPtr >>> 3) + n), at);
  });
}

/** Rabin of values as concatenated 8-byte big-endian words (the shingle-fingerprint rule). */
function fingerprintValues(values: BigUint64Array): bigint {
  return withArena((mem, k) => {
    const ptr = mem.alloc(values.length * 8);
    const dv = new DataView(mem.u8.buffer);
    for (let i = 0; i < values.length; i++) dv.setBigUint64(ptr + 8 * i, values[i], false);
    return BigInt.asUintN(64, k.rb_update(1n, ptr, values.length * 8));
  });
}

/** v mod m for a u64 as two words, m ≤ 2^32, in doubles that stay below 2^53. */
function mod64(hi: number, lo: number, m: number): number {
  return ((((hi % m) * 65536) % m) * 65536 + lo) % m;
}

function fmix64(x: bigint): bigint {
  x ^= x >> 33n; x = (x * 0xff51afd7ed558ccdn) & M64;
  x ^= x >> 33n; x = (x * 0xc4ceb9fe1a85ec53n) & M64;
  return x ^ (x >> 33n);
}

/** Selects the sketch from all permuted shingle values (as the kernels do for text; docs/FORMATS.md). */
function itemSketch(all: BigUint64Array, items: number, p: SketchParams): Sketch {
  // No item at all is a document without tokens: one shingle of all (none of) its tokens, Rabin("") = 1.
  let sorted = all.length ? all.slice().sort() : BigUint64Array.of(fmix64(1n ^ p.seed));
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[distinct++] = sorted[i];
  sorted = sorted.subarray(0, distinct);
  const w = new Uint32Array(sorted.buffer, sorted.byteOffset, distinct * 2);
  const le = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const HI = le ? 1 : 0, LO = le ? 0 : 1;
  let values: BigUint64Array, cardinality: number, modulusLog2 = 0;
  if (p.kind === 'min') {
    values = sorted.slice(0, p.s);
    cardinality = kmvCardinality(values.length, p.s, values[values.length - 1]);
  } else {
    let keep: (i: number) => boolean;
    if (p.kind === 'mod') keep = (i) => mod64(w[2 * i + HI], w[2 * i + LO], p.m) === 0;
    else {
      // As the kernel (assembly/select.ts): the largest i with ⌊n / 2^i⌋ ≥ 50, so 50 ≤ kept < 100.
      while (Math.floor(distinct / 2 ** (modulusLog2 + 1)) >= 50) modulusLog2++;
      const e = modulusLog2, loMask = e >= 32 ? 0xffffffff : 2 ** e - 1, hiMask = e > 32 ? 2 ** (e - 32) - 1 : 0;
      keep = (i) => (w[2 * i + LO] & loMask) === 0 && (w[2 * i + HI] & hiMask) === 0;
    }
    let c = 0;
    for (let i = 0; i < distinct; i++) if (keep(i)) c++;
    values = new BigUint64Array(c);
    c = 0;
    for (let i = 0; i < distinct; i++) if (keep(i)) values[c++] = sorted[i];
    cardinality = distinct;
  }
  const lexical = fingerprintValues(sorted);
  const sketch: Sketch = {
    params: p, values, cardinality, modulusLog2, tokens: items,
    rawFp: lexical, lexicalFp: lexical, shingleFp: fingerprintValues(values),
  };
  if (p.k > 0) sketch.signature = signatureOf(sorted, w, HI, p.k, p.seed);
  return sketch;
}

/**
 * One-permutation hashing with optimal densification (docs/FORMATS.md, Signature): bin j keeps
 * the smallest value whose high word falls in it; an empty bin copies the first non-empty bin
 * its own hash sequence reaches.
 */
function signatureOf(sorted: BigUint64Array, w: Uint32Array, HI: number, k: number, seed: bigint): BigUint64Array {
  const sig = new BigUint64Array(k);
  const full = new Uint8Array(k);
  // Ascending values: the first value to land in a bin is its smallest.
  for (let i = 0; i < sorted.length; i++) {
    const j = Math.floor((w[2 * i + HI] * k) / 2 ** 32);
    if (!full[j]) { full[j] = 1; sig[j] = sorted[i]; }
  }
  const filled = sig.slice();
  for (let j = 0; j < k; j++) {
    if (full[j]) continue;
    for (let a = 1n; ; a++) {
      const h = fmix64(((BigInt(j) << 32n) | a) ^ seed ^ 0x6f6e652d7065726dn);
      const b = Number((h >> 32n) * BigInt(k) >> 32n);
      if (full[b]) { filled[j] = sig[b]; break; }
    }
  }
  return filled;
}
