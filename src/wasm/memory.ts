import { ResembleError } from '../errors.js';

/** WebAssembly memory32 tops out at 65536 pages of 64 KiB. */
const MAX_BYTES = 65536 * 65536;

/**
 * The one owner of views on WebAssembly memory. After `memory.grow` every old view reads as
 * length 0, so views are rebuilt here whenever `memory.buffer` changed, and nothing else keeps
 * a view across a WASM call. Memory above the kernels' static data is a bump arena: a batch
 * call does `reset()`, `alloc()`s its inputs and outputs, calls WASM, and reads results back.
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

  /** Frees every arena allocation (static data below `base` stays). */
  reset(): void { this.top = this.base; }

  /** Current arena top, to `release()` back to after a nested use. */
  mark(): number { return this.top; }
  release(mark: number): void { this.top = mark; }

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
}

export function align(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}
