// Rabin fingerprints and content-defined chunking (kernel: assembly/rabin.ts, rb_*; twin:
// src/reference/rabin.ts).
import { enumOption, intOption, optionError, rejectUnknown, ResembleError } from '../errors.js';
import { checked } from '../wasm/kernels.js';
import { withArena } from '../wasm/instance.js';
import { byteBound, checkDoc, putDoc, writeDoc, type DocInput } from './input.js';

/**
 * The fingerprint polynomial: P(x) = x^64 + POLYNOMIAL (bit i = coefficient of x^i), irreducible
 * over GF(2) (checked by Rabin's test in test/sketch/rabin.test.ts).
 */
export const POLYNOMIAL = 0xd4a41f7ee59d7dffn;

const u64 = (x: bigint) => BigInt.asUintN(64, x);

/** Rabin fingerprint of a byte string (or a string's UTF-8): (x^(8n) + bytes(x)) mod P. */
export function fingerprint(doc: DocInput): bigint {
  const bad = checkDoc(doc);
  if (bad) throw new ResembleError('E_INPUT', `fingerprint: ${bad}`);
  return withArena((mem, k) => {
    const [ptr, len] = putDoc(mem, doc);
    return u64(k.rb_update(1n, ptr, len));
  });
}

/** Rabin fingerprints of many documents, in batched calls. */
export function fingerprintMany(docs: ArrayLike<DocInput>): BigUint64Array {
  const out = new BigUint64Array(docs.length);
  let i = 0;
  while (i < docs.length) {
    let j = i, bytes = 0;
    while (j < docs.length && (j === i || bytes + byteBound(docs[j]) <= 4 << 20) && j - i < 65536) {
      const bad = checkDoc(docs[j]);
      if (bad) throw new ResembleError('E_INPUT', `fingerprintMany: document ${j}: ${bad}`, { index: j });
      bytes += byteBound(docs[j]); j++;
    }
    withArena((mem, k) => {
      const inPtr = mem.alloc(bytes);
      const offPtr = mem.alloc((j - i + 1) * 4);
      const outPtr = mem.alloc((j - i) * 8);
      let at = 0;
      for (let d = i; d < j; d++) {
        mem.u32[(offPtr >>> 2) + d - i] = at;
        at += writeDoc(mem, docs[d], inPtr + at);
      }
      mem.u32[(offPtr >>> 2) + j - i] = at;
      checked('rb_fingerprint_batch', k.rb_fingerprint_batch(inPtr, offPtr, j - i, outPtr));
      out.set(mem.u64.subarray(outPtr >>> 3, (outPtr >>> 3) + j - i), i);
    });
    i = j;
  }
  return out;
}

/** Streaming Rabin fingerprint: update(bytes)… digest() equals fingerprint(all bytes) at any split. */
export class Fingerprinter {
  private state = 1n;
  /** Appends bytes (a string is taken as its UTF-8). */
  update(bytes: DocInput): this {
    this.state = withArena((mem, k) => {
      const [ptr, len] = putDoc(mem, bytes);
      return u64(k.rb_update(this.state, ptr, len));
    });
    return this;
  }
  /** The fingerprint of everything appended so far (the stream may go on). */
  digest(): bigint {
    return this.state;
  }
}

/** Fingerprints of every window of `window` bytes (bytes.length − window + 1 values). */
export function rollingFingerprints(bytes: Uint8Array, window: number): BigUint64Array {
  intOption('window', window, 0, 1, 1 << 20);
  const n = Math.max(0, bytes.length - window + 1);
  return withArena((mem, k) => {
    const ptr = mem.put(bytes);
    const out = mem.alloc(n * 8);
    return mem.takeU64(out, checked('rb_rolling', k.rb_rolling(ptr, bytes.length, window, out, n)));
  });
}

/** Content-defined chunking options (rabin-wasm's use case). */
export interface ChunkOptions {
  /** Bytes in the rolling window, 1..4096. Default 48. */
  window?: number;
  /** Average chunk size, a power of two ≥ 2: a boundary where the window's fingerprint & (avg − 1) equals target. Default 8192. */
  averageSize?: number;
  /** Smallest chunk (except the last). Default averageSize / 4. */
  minSize?: number;
  /** Largest chunk. Default averageSize · 8. */
  maxSize?: number;
  /**
   * Whose cut points: 'resemble' (default: our Rabin fingerprint of the window, docs/FORMATS.md)
   * or 'rabin-wasm' (rabin-wasm's degree-53 polynomial, so the same chunks as
   * `new Rabin(bits, min, max, window).fingerprint(buf)` for users moving from it; needs
   * minSize ≥ window). Same speed either way.
   */
  boundaries?: 'resemble' | 'rabin-wasm';
}

/** Validated chunking parameters as the kernel takes them. */
interface ChunkParams { window: number; mask: bigint; minSize: number; maxSize: number; flavor: number }

function chunkParams(o: ChunkOptions = {}): ChunkParams {
  rejectUnknown(o, ['window', 'averageSize', 'minSize', 'maxSize', 'boundaries'], 'chunks');
  const window = intOption('window', o.window, 48, 1, 4096);
  const avg = intOption('averageSize', o.averageSize, 8192, 2, 2 ** 30);
  if ((avg & (avg - 1)) !== 0) throw optionError('averageSize', 'a power of two', avg);
  const minSize = intOption('minSize', o.minSize, Math.max(1, avg >> 2), 1, 2 ** 30);
  const maxSize = intOption('maxSize', o.maxSize, avg * 8, minSize, 2 ** 31);
  const boundaries = enumOption('boundaries', o.boundaries, 'resemble', ['resemble', 'rabin-wasm'] as const);
  if (boundaries === 'rabin-wasm' && minSize < window) throw optionError('minSize', `at least the window (${window}) with boundaries 'rabin-wasm'`, minSize);
  return { window, mask: BigInt(avg - 1), minSize, maxSize, flavor: boundaries === 'rabin-wasm' ? 1 : 0 };
}

/** Chunk end offsets of a whole buffer (the last is bytes.length when it is not empty). */
export function chunkBoundaries(bytes: Uint8Array, options?: ChunkOptions): Uint32Array {
  const c = new Chunker(options);
  const a = c.update(bytes);
  const b = c.finish();
  const out = new Uint32Array(a.length + b.length);
  out.set(a); out.set(b, a.length);
  return out;
}

/**
 * Streaming content-defined chunker: update(bytes) returns the boundaries (absolute offsets)
 * found so far; finish() the last one. The window is carried across updates, so boundaries do
 * not depend on how the stream was split.
 */
export class Chunker {
  private p: ChunkParams;
  private tail = new Uint8Array(0);    // the last window − 1 bytes seen
  private offset = 0;                  // bytes consumed so far
  private chunkLen = 0;                // bytes in the open chunk

  constructor(options?: ChunkOptions) { this.p = chunkParams(options); }

  /** Takes the next bytes; returns the boundaries found in them (absolute offsets). */
  update(bytes: Uint8Array): Uint32Array { return this.run(bytes, false); }
  /** Ends the stream; returns the last boundary (its end). */
  finish(): Uint32Array { return this.run(new Uint8Array(0), true); }

  private run(bytes: Uint8Array, final: boolean): Uint32Array {
    const { window, mask, minSize, maxSize, flavor } = this.p;
    return withArena((mem, k) => {
      const carry = this.tail.length;
      const ptr = mem.alloc(carry + bytes.length);
      mem.u8.set(this.tail, ptr);
      mem.u8.set(bytes, ptr + carry);
      const cap = Math.floor((bytes.length + this.chunkLen) / minSize) + 2;   // a cut needs minSize bytes, the open chunk's included
      const out = mem.alloc(cap * 4);
      const n = checked('rb_chunks', k.rb_chunks(ptr + carry, bytes.length, carry, window, mask, 0n, minSize, maxSize, this.chunkLen, final ? 1 : 0, flavor, out, cap));
      const ends = mem.takeU32(out, n);
      const lastEnd = n > 0 ? ends[n - 1] : 0;
      this.chunkLen = n > 0 ? bytes.length - lastEnd : this.chunkLen + bytes.length;
      if (final) this.chunkLen = 0;
      const keep = Math.min(window - 1, carry + bytes.length);   // the window − 1 bytes carried to the next update
      this.tail = mem.takeU8(ptr + carry + bytes.length - keep, keep);
      for (let i = 0; i < n; i++) ends[i] += this.offset;
      this.offset += bytes.length;
      return ends;
    });
  }
}
