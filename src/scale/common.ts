// Broder's common-shingle cap without holding the sketches: which sketch values are held by more
// than `cap` documents, counted exactly, in memory that follows the number of common values and not
// the number of values. A first pass over the rows counts every value approximately in a count-min
// sketch (Cormode and Muthukrishnan) sized from the number of values; its estimates never fall below
// the true count, so a value it keeps at or under the cap is certainly not common. A second pass
// counts exactly the few values it could not clear.
import { HI as HI_WORD, LO as LO_WORD } from '../cluster/index.js';

const HI = HI_WORD, LO = LO_WORD;

/** Counters per 64-byte block: a value's two counters lie in one block, one cache miss per value. */
const BLOCK = 32;
const MIN_BLOCKS = 1 << 10;
/** At most 2^27 counters (256 MiB of 16-bit ones). */
const MAX_BLOCKS = 1 << 22;

function fmix(h: number): number {
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/**
 * A count-min sketch of sketch values: two counters per value in one cache line, conservative
 * update. Sized for `values` insertions so that a counter holds about cap / 8 of them (the noise
 * stays far under the cap), within 256 MiB. Estimates are upper bounds of the true counts, so
 * `mayExceed(v)` is true for every value counted more than `cap` times.
 */
export class CommonFilter {
  private readonly counts: Uint16Array | Uint32Array;
  private readonly mask: number;
  private readonly saturated: number;

  constructor(readonly cap: number, values: number) {
    const want = Math.ceil((values * 8) / Math.max(1, cap) / BLOCK);
    let blocks = MIN_BLOCKS;
    while (blocks < want && blocks < MAX_BLOCKS) blocks *= 2;
    this.saturated = cap < 0xfff0 ? 0xffff : 0xffffffff;
    this.counts = this.saturated === 0xffff ? new Uint16Array(blocks * BLOCK) : new Uint32Array(blocks * BLOCK);
    this.mask = blocks - 1;
  }

  /** Bytes held by the counters. */
  get byteLength(): number {
    return this.counts.byteLength;
  }

  /** Counts the values of one row: words w[2i], w[2i + 1] for i in [start, end) (see `words`). */
  addRow(w: Uint32Array, start: number, end: number): void {
    const c = this.counts, mask = this.mask, sat = this.saturated;
    for (let i = start; i < end; i++) {
      const hi = w[2 * i + HI], lo = w[2 * i + LO];
      const h1 = fmix(lo ^ Math.imul(hi, 0x9e3779b1)), h2 = fmix(hi ^ Math.imul(lo, 0x85ebca77) ^ 0x27d4eb2f);
      const base = (h1 & mask) * BLOCK;
      const i1 = base + (h2 & 31), i2 = base + ((h2 >>> 5) & 31);
      const a = c[i1], b = c[i2];
      const m = a < b ? a : b;
      if (m === sat) continue;
      if (a === m) c[i1] = m + 1;
      if (b === m) c[i2] = m + 1;
    }
  }

  /** Takes a value's words; returns false when it is certainly held by at most `cap` of the rows counted. */
  mayExceed(hi: number, lo: number): boolean {
    const h1 = fmix(lo ^ Math.imul(hi, 0x9e3779b1)), h2 = fmix(hi ^ Math.imul(lo, 0x85ebca77) ^ 0x27d4eb2f);
    const base = (h1 & this.mask) * BLOCK;
    const a = this.counts[base + (h2 & 31)], b = this.counts[base + ((h2 >>> 5) & 31)];
    return (a < b ? a : b) > this.cap;
  }
}

/** Exact counts of 64-bit values (as word pairs) in an open-addressing table: for the few values a CommonFilter could not clear. */
export class ValueCounts {
  private hi = new Uint32Array(1024);
  private lo = new Uint32Array(1024);
  private count = new Uint32Array(1024);
  /** Distinct values counted. */
  size = 0;

  private slot(hi: number, lo: number): number {
    const mask = this.count.length - 1;
    let i = fmix(lo ^ Math.imul(hi, 0x2545f491)) & mask;
    while (this.count[i] !== 0 && (this.hi[i] !== hi || this.lo[i] !== lo)) i = (i + 1) & mask;
    return i;
  }

  /** Adds one to a value's count. */
  add(hi: number, lo: number): void {
    let i = this.slot(hi, lo);
    if (this.count[i] === 0) {
      if (2 * (this.size + 1) > this.count.length) { this.rehash(); i = this.slot(hi, lo); }
      this.hi[i] = hi; this.lo[i] = lo; this.size++;
    }
    this.count[i]++;
  }

  /** A value's count (0 when never added). */
  get(hi: number, lo: number): number {
    return this.count[this.slot(hi, lo)];
  }

  private rehash(): void {
    const { hi, lo, count } = this;
    this.hi = new Uint32Array(count.length * 2); this.lo = new Uint32Array(count.length * 2); this.count = new Uint32Array(count.length * 2);
    for (let i = 0; i < count.length; i++) {
      if (count[i] === 0) continue;
      const j = this.slot(hi[i], lo[i]);
      this.hi[j] = hi[i]; this.lo[j] = lo[i]; this.count[j] = count[i];
    }
  }

  /** Calls fn(hi, lo, count) for every value counted. */
  forEach(fn: (hi: number, lo: number, count: number) => void): void {
    for (let i = 0; i < this.count.length; i++) if (this.count[i] !== 0) fn(this.hi[i], this.lo[i], this.count[i]);
  }
}
