// Radix sort of (u64 key, u32 payload) entries held as three parallel Uint32Arrays (key high
// word, key low word, payload). Grouping (shingle, doc) pairs by shingle is the paper's second
// phase; sorting by the high word first and then fixing up runs of equal high words by the low
// word takes two scatter passes on fingerprints (whose high words rarely collide) instead of four.

/** Three parallel columns: key high word, key low word, payload. */
export interface KeyedColumns {
  hi: Uint32Array;
  lo: Uint32Array;
  pay: Uint32Array;
}

import { checked } from '../wasm/kernels.js';
import { isInitialized, withArena } from '../wasm/instance.js';

const count = new Uint32Array(256 + 1);

/** Allocates scratch columns of length n for `sortKeyed`. */
export function keyedColumns(n: number): KeyedColumns {
  return { hi: new Uint32Array(n), lo: new Uint32Array(n), pay: new Uint32Array(n) };
}

/**
 * Sorts entries [0, n) of `a` by the 64-bit key hi:lo, ascending; stable, so equal keys keep
 * their payload order. `t` is scratch of length ≥ n.
 */
export function sortKeyed(a: KeyedColumns, t: KeyedColumns, n: number): void {
  lsdRange(a, t, true, 0, n);
  const hi = a.hi;
  let i = 0;
  while (i < n) {
    const h = hi[i];
    let j = i + 1;
    while (j < n && hi[j] === h) j++;
    if (j - i > 1) {
      if (j - i <= 48) insertionByLo(a, i, j);
      else lsdRange(a, t, false, i, j);
    }
    i = j;
  }
}

/** Stable insertion sort of [from, to) by the low word (runs of equal high word are tiny). */
function insertionByLo(a: KeyedColumns, from: number, to: number): void {
  const lo = a.lo, pay = a.pay;
  for (let i = from + 1; i < to; i++) {
    const l = lo[i], p = pay[i];
    let j = i - 1;
    while (j >= from && lo[j] > l) { lo[j + 1] = lo[j]; pay[j + 1] = pay[j]; j--; }
    lo[j + 1] = l; pay[j + 1] = p;
  }
}

/** Stable LSD sort of [from, to) by one 32-bit word (hi or lo), moving all three columns. */
function lsdRange(a: KeyedColumns, t: KeyedColumns, byHi: boolean, from: number, to: number): void {
  const n = to - from;
  if (n < 2) return;
  // 16-bit digits halve the passes; below 2^14 entries the 2^16-bucket histogram costs more.
  // 8-bit digits: 256 buckets × 3 columns of write streams stay in cache; 16-bit digits halve the
  // passes but scatter over 196,608 streams and measured twice as slow.
  const bits = 8;
  const buckets = 1 << bits, mask = buckets - 1;
  let src = a, dst = t;
  for (let shift = 0; shift < 32; shift += bits) {
    const key = byHi ? src.hi : src.lo;
    count.fill(0, 0, buckets + 1);
    for (let i = from; i < to; i++) count[((key[i] >>> shift) & mask) + 1]++;
    let single = false;
    for (let b = 1; b <= buckets; b++) { if (count[b] === n) { single = true; break; } if (count[b] !== 0) break; }
    if (single) continue; // every entry has this digit: the pass would not move anything
    count[0] = from;
    for (let b = 1; b <= buckets; b++) count[b] += count[b - 1];
    const sHi = src.hi, sLo = src.lo, sPay = src.pay, dHi = dst.hi, dLo = dst.lo, dPay = dst.pay;
    for (let i = from; i < to; i++) {
      const p = count[(key[i] >>> shift) & mask]++;
      dHi[p] = sHi[i]; dLo[p] = sLo[i]; dPay[p] = sPay[i];
    }
    const x = src; src = dst; dst = x;
  }
  if (src !== a) {
    a.hi.set(src.hi.subarray(from, to), from);
    a.lo.set(src.lo.subarray(from, to), from);
    a.pay.set(src.pay.subarray(from, to), from);
  }
}

/**
 * The same sort in the WebAssembly kernel `sort_keyed` (assembly/sort.ts) when `init()` has run,
 * else in TypeScript; the columns are copied into the kernels' arena and back.
 */
export function sortKeyedFast(a: KeyedColumns, t: KeyedColumns, n: number): void {
  if (n < 64 || !isInitialized()) { sortKeyed(a, t, n); return; }
  withArena((mem, k) => {
    const bytes = n * 4;
    const hi = mem.alloc(bytes), lo = mem.alloc(bytes), pay = mem.alloc(bytes);
    const tHi = mem.alloc(bytes), tLo = mem.alloc(bytes), tPay = mem.alloc(bytes);
    const u32 = mem.u32;
    u32.set(a.hi.subarray(0, n), hi >>> 2); u32.set(a.lo.subarray(0, n), lo >>> 2); u32.set(a.pay.subarray(0, n), pay >>> 2);
    checked('sort_keyed', k.sort_keyed(hi, lo, pay, n, tHi, tLo, tPay));
    const v = mem.u32;
    a.hi.set(v.subarray(hi >>> 2, (hi >>> 2) + n)); a.lo.set(v.subarray(lo >>> 2, (lo >>> 2) + n)); a.pay.set(v.subarray(pay >>> 2, (pay >>> 2) + n));
  });
  void t;
}
