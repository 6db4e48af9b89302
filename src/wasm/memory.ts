import { ResembleError } from '../errors.js';

/** WebAssembly memory32 tops out at 65536 pages of 64 KiB. */
const MAX_BYTES = 65536 * 65536;

/**
 * The one owner of views on WebAssembly memory. After `memory.grow` every old view reads as
 * length 0, so views are rebuilt here whenever `memory.buffer` changed, and nothing else keeps
 * a view across a WASM call. Memory above the kernels' static data is a bump arena: a wrapper
 * runs inside `scoped()` (usually through `withArena`), `alloc()`s or `put…()`s its inputs and
 * outputs, calls WASM, `take…()`s the results, and everything it allocated is freed on return.
 */
export class WasmMemory {
  private buffer: ArrayBuffer;
  private _u8!: Uint8Array;
  private _u32!: Uint32Array;
  private _i32!: Int32Array;
  private _u64!: BigUint64Array;
  private _f64!: Float64Array;
  private top: number;

  constructor(readonly memory: WebAssembly.Memory, readonly base: number) {
    this.base = align(base, 16);
    this.top = this.base;
    this.buffer = memory.buffer;
    this.rebuild();
  }

  private rebuild(): void {
    this.buffer = this.memory.buffer;
    this._u8 = new Uint8Array(this.buffer);
    this._u32 = new Uint32Array(this.buffer);
    this._i32 = new Int32Array(this.buffer);
    this._u64 = new BigUint64Array(this.buffer);
    this._f64 = new Float64Array(this.buffer);
  }

  private fresh(): void {
    if (this.memory.buffer !== this.buffer) this.rebuild();
  }

  get u8(): Uint8Array { this.fresh(); return this._u8; }
  get u32(): Uint32Array { this.fresh(); return this._u32; }
  get i32(): Int32Array { this.fresh(); return this._i32; }
  get u64(): BigUint64Array { this.fresh(); return this._u64; }
  get f64(): Float64Array { this.fresh(); return this._f64; }

  /** Reserves `bytes` (16-byte aligned) and grows memory when needed; returns the pointer. */
  alloc(bytes: number): number {
    const ptr = this.top;
    const end = align(ptr + Math.max(0, bytes), 16);
    this.ensure(end);
    this.top = end;
    return ptr;
  }

  /** Makes memory at least `end` bytes long (WebAssembly caps it at 4 GiB). */
  ensure(end: number): void {
    const have = this.memory.buffer.byteLength;
    if (end <= have) return;
    const pages = Math.ceil((end - have) / 65536);
    if (end > MAX_BYTES) throw new ResembleError('E_INPUT', `a batch needs ${end} bytes of WebAssembly memory, over the 4 GiB limit: pass smaller documents or batches`);
    try {
      this.memory.grow(Math.max(pages, Math.ceil(have / 65536 / 4))); // grow by ≥25% to amortise
    } catch {
      this.memory.grow(pages); // near the limit: exactly what is needed
    }
    this.rebuild();
  }

  /** Copies `bytes` into the arena; returns the pointer. */
  put(bytes: Uint8Array): number {
    const ptr = this.alloc(bytes.length);
    this.u8.set(bytes, ptr);
    return ptr;
  }

  /** Copies a u32 array into the arena; returns the pointer. */
  putU32(values: ArrayLike<number>): number {
    const ptr = this.alloc(values.length * 4);
    this.u32.set(values, ptr >>> 2);
    return ptr;
  }

  /** Copies a u64 array into the arena; returns the pointer. */
  putU64(values: BigUint64Array): number {
    const ptr = this.alloc(values.length * 8);
    this.u64.set(values, ptr >>> 3);
    return ptr;
  }

  /** Copies an f64 array into the arena; returns the pointer. */
  putF64(values: Float64Array): number {
    const ptr = this.alloc(values.length * 8);
    this.f64.set(values, ptr >>> 3);
    return ptr;
  }

  /** Copies n u32 values at ptr out of WebAssembly memory (the copy survives later calls). */
  takeU32(ptr: number, n: number): Uint32Array<ArrayBuffer> { return this.u32.slice(ptr >>> 2, (ptr >>> 2) + n); }
  /** Copies n u64 values at ptr out of WebAssembly memory. */
  takeU64(ptr: number, n: number): BigUint64Array<ArrayBuffer> { return this.u64.slice(ptr >>> 3, (ptr >>> 3) + n); }
  /** Copies n f64 values at ptr out of WebAssembly memory. */
  takeF64(ptr: number, n: number): Float64Array<ArrayBuffer> { return this.f64.slice(ptr >>> 3, (ptr >>> 3) + n); }
  /** Copies n bytes at ptr out of WebAssembly memory. */
  takeU8(ptr: number, n: number): Uint8Array<ArrayBuffer> { return this.u8.slice(ptr, ptr + n); }

  /** True when `buffer` is this memory's (it can be neither transferred nor kept across calls). */
  owns(buffer: ArrayBufferLike): boolean { return buffer === this.memory.buffer; }

  /** Runs f with the arena marked, and frees everything f allocated when it returns or throws. */
  scoped<T>(f: () => T): T {
    const mark = this.top;
    try {
      return f();
    } finally {
      this.top = mark;
    }
  }
}

export function align(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}
