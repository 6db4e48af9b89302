// Sketch selection from a stream of permuted shingle values (Broder §2):
//   MIN_s — the s smallest distinct values: kept sorted; every value is tested against the s-th
//           smallest so far with no branch (it is stored either way and the count advances only
//           when it is below), and the candidates are sorted and merged into the sketch each
//           time 2s of them gather (or at the end), which raises the bar for the next ones;
//   MOD_m — the values ≡ 0 mod m; adaptive: m = 2^i with i chosen from the distinct count n so
//           the sketch keeps n / 2^i ∈ [50, 100) values (the paper's bounded V_i);
//   and a k-value signature by one-permutation hashing with optimal densification
//   (Shrivastava 2017), for LSH banding.
import { mix } from './mix';
import { cfgK, cfgKind, cfgM, cfgS, cfgSeed, KIND_ADAPTIVE, KIND_MIN, KIND_MOD, MAX_K, MAX_S } from './config';

/** The sketch so far (MIN_s): its distinct values ascending, at most s. */
const SKETCH: usize = memory.data(<i32>MAX_S * 8, 16);
const MERGED: usize = memory.data(<i32>MAX_S * 8, 16);
/** Candidates since the last merge: at most 2s (merged when that many gather). */
const CAND: usize = memory.data(<i32>MAX_S * 2 * 8, 16);
const SIG: usize = memory.data(<i32>MAX_K * 8, 16);

// per document, from the configuration
let kind: u32 = KIND_MIN;
let s: u32 = 128;
let m: u64 = 25;
let k: u32 = 0;
let sigSeed: u64 = 0;

let sketchN: u32 = 0;
let candN: u32 = 0;
let candCap: u32 = 256;
/** While the sketch holds fewer than s values every value is a candidate; then those below bar (its largest). */
let open = true;
let bar: u64 = 0;
let scratch: usize = 0;
let scratchCap: u32 = 0;
let scratchN: u32 = 0;
let overflow = false;

/** Distinct values seen (exact for mod/adaptive; sketch size for min), and the adaptive exponent. */
export let lastDistinct: u32 = 0;
export let lastModLog2: u32 = 0;

/** Starts a document with the configured selection; scratch holds MOD/adaptive values (cap of them). */
export function selectBegin(scratchPtr: usize, cap: u32): void {
  kind = cfgKind; s = cfgS; m = cfgM; k = cfgK; sigSeed = cfgSeed ^ 0x6f6e652d7065726d; // "one-perm"
  sketchN = 0; candN = 0; candCap = s * 2; open = true; bar = 0;
  scratch = scratchPtr; scratchCap = cap; scratchN = 0; overflow = false;
  if (k > 0) memory.fill(SIG, 0xff, <usize>k << 3);
}

/** Sorts the candidates and merges them into the sketch (distinct, the s smallest); sets the bar. */
function selectMerge(): void {
  const n = candN;
  candN = 0;
  if (n == 0) return;
  sortU64(CAND, n);
  let i: u32 = 0, j: u32 = 0, o: u32 = 0;
  const a = sketchN;
  while (o < s && (i < a || j < n)) {
    let v: u64;
    if (j >= n) { v = load<u64>(SKETCH + (<usize>i << 3)); i++; }
    else if (i < a && load<u64>(SKETCH + (<usize>i << 3)) <= load<u64>(CAND + (<usize>j << 3))) { v = load<u64>(SKETCH + (<usize>i << 3)); i++; }
    else { v = load<u64>(CAND + (<usize>j << 3)); j++; }
    if (o > 0 && v == load<u64>(MERGED + (<usize>(o - 1) << 3))) continue;
    store<u64>(MERGED + (<usize>o << 3), v);
    o++;
  }
  memory.copy(SKETCH, MERGED, <usize>o << 3);
  sketchN = o;
  if (o == s) { open = false; bar = load<u64>(SKETCH + (<usize>(o - 1) << 3)); }
}

/** Offers one permuted shingle value to the sketch (and the signature); inline in the shingle loop. */
@inline export function selectOffer(v: u64): void {
  if (k > 0) {
    const bin = <usize>(((v >> 32) * <u64>k) >> 32);
    if (v < load<u64>(SIG + (bin << 3))) store<u64>(SIG + (bin << 3), v);
  }
  if (kind == KIND_MIN) {
    store<u64>(CAND + (<usize>candN << 3), v);
    candN += <u32>(v < bar) | <u32>open;
    if (candN == candCap) selectMerge();
    return;
  }
  if (scratchN >= scratchCap) { overflow = true; return; }
  store<u64>(scratch + (<usize>scratchN << 3), v);
  scratchN++;
}

/** selectOffer, out of line (one value at a document's end). */
export function selectValue(v: u64): void { selectOffer(v); }

/** Bucket counts of sortU64's distribution pass: starts[257] and the next free place of each bucket. */
const STARTS: usize = memory.data(257 * 4, 16);
const NEXT: usize = memory.data(256 * 4, 16);

/**
 * Sorts n u64 values ascending in place. The values are hashes, spread evenly below their largest:
 * one counting pass and one in-place distribution (American flag sort) by the 8 bits under the
 * largest value's leading zeros puts them in 256 buckets, each then sorted by quicksort (insertion
 * sort below 24). Values bunched in one bucket cost what quicksort costs; never more.
 */
export function sortU64(ptr: usize, n: u32): void {
  if (n < 2) return;
  if (n < 64) { quick(ptr, 0, <i32>n - 1); return; }
  let any: u64 = 0;
  for (let i: u32 = 0; i < n; i++) any |= load<u64>(ptr + (<usize>i << 3));
  if (any == 0) return;
  const lz = clz(any);
  memory.fill(STARTS, 0, 257 * 4);
  for (let i: u32 = 0; i < n; i++) {
    const c = STARTS + ((<usize>((load<u64>(ptr + (<usize>i << 3)) << lz) >> 56) + 1) << 2);
    store<u32>(c, load<u32>(c) + 1);
  }
  for (let b = 1; b <= 256; b++) {
    const c = STARTS + (<usize>b << 2);
    store<u32>(c, load<u32>(c) + load<u32>(c - 4));
  }
  memory.copy(NEXT, STARTS, 256 * 4);
  for (let b: usize = 0; b < 256; b++) {
    const end = load<u32>(STARTS + ((b + 1) << 2));
    let at = load<u32>(NEXT + (b << 2));
    while (at < end) {
      // carry the value at `at` to its bucket, and the one found there on, until one belongs here
      let v = load<u64>(ptr + (<usize>at << 3));
      let d = <usize>((v << lz) >> 56);
      while (d != b) {
        const q = NEXT + (d << 2);
        const to = load<u32>(q);
        store<u32>(q, to + 1);
        const t = load<u64>(ptr + (<usize>to << 3));
        store<u64>(ptr + (<usize>to << 3), v);
        v = t;
        d = <usize>((v << lz) >> 56);
      }
      store<u64>(ptr + (<usize>at << 3), v);
      at++;
    }
    store<u32>(NEXT + (b << 2), at);
  }
  for (let b: usize = 0; b < 256; b++) {
    const from = <i32>load<u32>(STARTS + (b << 2)), to = <i32>load<u32>(STARTS + ((b + 1) << 2));
    if (to - from > 1) quick(ptr, from, to - 1);
  }
}

function quick(ptr: usize, lo: i32, hi: i32): void {
  while (hi - lo > 24) {
    const mid = lo + ((hi - lo) >> 1);
    // median of three as pivot
    let a = load<u64>(ptr + (<usize>lo << 3)), b = load<u64>(ptr + (<usize>mid << 3)), c = load<u64>(ptr + (<usize>hi << 3));
    let pivot: u64 = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
    let i = lo, j = hi;
    while (i <= j) {
      while (load<u64>(ptr + (<usize>i << 3)) < pivot) i++;
      while (load<u64>(ptr + (<usize>j << 3)) > pivot) j--;
      if (i <= j) {
        const t = load<u64>(ptr + (<usize>i << 3));
        store<u64>(ptr + (<usize>i << 3), load<u64>(ptr + (<usize>j << 3)));
        store<u64>(ptr + (<usize>j << 3), t);
        i++; j--;
      }
    }
    // recurse into the smaller side, loop on the larger (bounded stack)
    if (j - lo < hi - i) { quick(ptr, lo, j); lo = i; } else { quick(ptr, i, hi); hi = j; }
  }
  for (let x = lo + 1; x <= hi; x++) {
    const v = load<u64>(ptr + (<usize>x << 3));
    let y = x - 1;
    while (y >= lo && load<u64>(ptr + (<usize>y << 3)) > v) {
      store<u64>(ptr + (<usize>(y + 1) << 3), load<u64>(ptr + (<usize>y << 3)));
      y--;
    }
    store<u64>(ptr + (<usize>(y + 1) << 3), v);
  }
}

/** Removes adjacent duplicates from a sorted array; returns the new length. */
export function uniqueU64(ptr: usize, n: u32): u32 {
  if (n == 0) return 0;
  let w: u32 = 1;
  for (let i: u32 = 1; i < n; i++) {
    const v = load<u64>(ptr + (<usize>i << 3));
    if (v != load<u64>(ptr + (<usize>(w - 1) << 3))) { store<u64>(ptr + (<usize>w << 3), v); w++; }
  }
  return w;
}

/**
 * Writes the finished sketch (sorted, distinct) at out, at most cap values; returns its length,
 * −2 when the scratch buffer overflowed, −1 when cap is short.
 */
export function selectFinish(out: usize, cap: u32): i32 {
  if (overflow) return -2;
  lastModLog2 = 0;
  if (kind == KIND_MIN) {
    selectMerge();
    const n = sketchN;
    if (n > cap) return -1;
    memory.copy(out, SKETCH, <usize>n << 3);
    lastDistinct = n;
    return <i32>n;
  }
  sortU64(scratch, scratchN);
  const n = uniqueU64(scratch, scratchN);
  lastDistinct = n;
  let mask: u64 = 0;
  if (kind == KIND_ADAPTIVE) {
    let i: u32 = 0;
    while ((<u64>n >> (i + 1)) >= 50) i++;   // largest i with n / 2^i ≥ 50, so n / 2^i < 100
    lastModLog2 = i;
    mask = (<u64>1 << i) - 1;
  }
  let w: u32 = 0;
  for (let j: u32 = 0; j < n; j++) {
    const v = load<u64>(scratch + (<usize>j << 3));
    if (kind == KIND_MOD ? v % m != 0 : (v & mask) != 0) continue;
    if (w >= cap) return -1;
    store<u64>(out + (<usize>w << 3), v);
    w++;
  }
  return <i32>w;
}

/** Writes the densified k-value signature at out (k u64). */
export function signatureFinish(out: usize): void {
  for (let j: u32 = 0; j < k; j++) {
    let v = load<u64>(SIG + (<usize>j << 3));
    if (v == 0xffffffffffffffff) {
      // optimal densification: probe bins chosen by a hash of (j, attempt) until a filled one
      for (let attempt: u64 = 1; attempt < 1 << 20; attempt++) {
        const h = mix((<u64>j << 32) | attempt, sigSeed);
        const b = <usize>(((h >> 32) * <u64>k) >> 32);
        const x = load<u64>(SIG + (b << 3));
        if (x != 0xffffffffffffffff) { v = x; break; }
      }
    }
    store<u64>(out + (<usize>j << 3), v);
  }
}
