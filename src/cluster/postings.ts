// The paper's second phase: expand sketches into (shingle, doc) pairs, sort them by shingle and
// read off each shingle's documents. One scatter pass splits the entries into 2^bits partitions
// by a hash of the shingle (a shingle's postings all fall in one partition, docs ascending), and
// each partition is radix-sorted alone (in WebAssembly once `init()` has run): the paper's
// divide, sort, merge, in memory. Working memory: 12 bytes per entry while the lists are read off.
import { HI as HI_WORD, LO as LO_WORD, words } from '../sketch/columns.js';
import { keyedColumns, sortKeyedFast } from './radix-sort.js';

// Word positions as module constants: imported bindings are slower to read in hot loops.
const HI = HI_WORD, LO = LO_WORD;

/** Shingle → documents lists; within a list DocIds ascend. */
export interface PostingLists {
  /** Concatenated lists. */
  docs: Uint32Array;
  /** List l is docs[listStart[l]..listStart[l+1]). */
  listStart: Uint32Array;
  /** Number of lists. */
  lists: number;
  /** Key of each list (high and low words), when kept; ascending within a partition. */
  keyHi?: Uint32Array;
  keyLo?: Uint32Array;
  /** Partition hash width; partition p holds lists partStart[p]..partStart[p+1). */
  partitionBits: number;
  partStart: Uint32Array;
  /** Shingles dropped for being in more than `cap` documents, and their postings. */
  ignoredShingles: number;
  ignoredPostings: number;
  /** Per document, how many of its values were dropped (when `countIgnored`). */
  ignoredPerDoc?: Uint32Array;
}

/** How to build postings: cap on documents per shingle, singletons and keys kept or not. */
export interface PostingsOptions {
  /** Lists longer than this are ignored and counted (the paper's common-shingle cap). */
  cap: number;
  /** Keep lists of one document (an index needs them; candidate pairs do not). */
  keepSingletons: boolean;
  /** Keep each list's key (for lookups). */
  keepKeys: boolean;
  /** Only these documents (ascending); all when absent. */
  docs?: Uint32Array;
  /** Count each document's dropped values (`ignoredPerDoc`). */
  countIgnored?: boolean;
  /** Entries per partition to aim for (each is sorted alone); default 2^20. */
  partitionEntries?: number;
  /**
   * Lists to merge the new entries into (built with keys; every document in them below every
   * new one, so a merged list is the base list then the new documents, still ascending). The
   * merge reads the base once in key order: linear, no re-sort. Not with `countIgnored`.
   */
  base?: PostingLists;
  /** Documents of `base` left out of the result (a flag per DocId: removed documents). */
  dropBase?: Uint8Array;
}

/** Which partition a 64-bit key falls in (a multiplicative hash of both words). */
export function partitionOf(hi: number, lo: number, bits: number): number {
  if (bits === 0) return 0;
  return Math.imul(hi ^ Math.imul(lo, 0x85ebca6b) ^ (lo >>> 15), 0x9e3779b1) >>> (32 - bits);
}

/** Builds shingle → documents lists from CSR rows (values, offsets); rows must be distinct values. */
export function buildPostings(values: BigUint64Array, offsets: Uint32Array, options: PostingsOptions): PostingLists {
  const w = words(values);
  const n = offsets.length - 1;
  const subset = options.docs;
  const nDocs = subset ? subset.length : n;
  const base = options.base, drop = options.dropBase;
  if (base && (!base.keyHi || !base.keyLo)) throw new Error('buildPostings: a base needs its keys');
  if (base && options.countIgnored) throw new Error('buildPostings: countIgnored is not available with a base');
  let total = 0;
  for (let k = 0; k < nDocs; k++) { const d = subset ? subset[k] : k; total += offsets[d + 1] - offsets[d]; }
  const baseTotal = base ? base.docs.length : 0;

  // Partitions of about 2^20 entries: few enough (≤ 4096) that the scatter pass writes to a few
  // hundred streams; 2^16-entry partitions sort in cache but made the scatter 2× slower at 1M docs.
  // A merge never has fewer partitions than its base (a base partition splits, never joins).
  const target = Math.max(256, options.partitionEntries ?? 1 << 20);
  let bits = base ? base.partitionBits : 0;
  while (bits < 12 && (total + baseTotal) / 2 ** bits > target) bits++;
  const parts = 1 << bits;
  const partFirst = new Uint32Array(parts + 1);
  for (let k = 0; k < nDocs; k++) {
    const d = subset ? subset[k] : k;
    for (let j = offsets[d], e = offsets[d + 1]; j < e; j++) partFirst[partitionOf(w[2 * j + HI], w[2 * j + LO], bits) + 1]++;
  }
  let maxPart = 0;
  for (let p = 0; p < parts; p++) { maxPart = Math.max(maxPart, partFirst[p + 1]); partFirst[p + 1] += partFirst[p]; }
  // One scatter pass puts every (shingle, doc) entry in its partition, docs ascending within each.
  const all = keyedColumns(total);
  const cursor = partFirst.slice(0, parts);
  for (let k = 0; k < nDocs; k++) {
    const d = subset ? subset[k] : k;
    for (let j = offsets[d], e = offsets[d + 1]; j < e; j++) {
      const h = w[2 * j + HI], l = w[2 * j + LO];
      const q = cursor[partitionOf(h, l, bits)]++;
      all.hi[q] = h; all.lo[q] = l; all.pay[q] = d;
    }
  }
  const baseOrder = base ? baseLists(base, bits) : undefined;
  const t = keyedColumns(maxPart);
  const allTotal = total + baseTotal;
  let docs = new Uint32Array(options.keepSingletons ? allTotal : Math.min(allTotal, 1 << 16));
  let m = 0;
  let listCap = options.keepSingletons ? allTotal + 1 : 1 << 14;
  let listStart = new Uint32Array(listCap);
  let keyHi = options.keepKeys ? new Uint32Array(listCap) : undefined;
  let keyLo = options.keepKeys ? new Uint32Array(listCap) : undefined;
  let lists = 0;
  const partStart = new Uint32Array(parts + 1);
  let ignoredShingles = 0, ignoredPostings = 0;
  const cap = options.cap, minLen = options.keepSingletons ? 1 : 2;
  const ignoredPerDoc = options.countIgnored ? new Uint32Array(n) : undefined;
  const bDocs = base?.docs, bStart = base?.listStart, bHi = base?.keyHi, bLo = base?.keyLo;

  /** Appends the list of key h:l: base list bl (or -1), then new entries [i, e) of `pay`. */
  const emit = (h: number, l: number, bl: number, pay: Uint32Array, i: number, e: number): void => {
    let bs = 0, be = 0, bLen = 0;
    if (bl >= 0) {
      bs = bStart![bl]; be = bStart![bl + 1];
      if (drop) { for (let q = bs; q < be; q++) if (!drop[bDocs![q]]) bLen++; } else bLen = be - bs;
    }
    const len = bLen + e - i;
    if (len > cap) {
      ignoredShingles++; ignoredPostings += len;
      if (ignoredPerDoc) for (let k = i; k < e; k++) ignoredPerDoc[pay[k]]++;
      return;
    }
    if (len < minLen || len === 0) return;
    if (m + len > docs.length) docs = grow(docs, m + len);
    let at = m;
    if (bLen > 0) {
      if (drop) { for (let q = bs; q < be; q++) { const d = bDocs![q]; if (!drop[d]) docs[at++] = d; } } else { docs.set(bDocs!.subarray(bs, be), at); at += bLen; }
    }
    for (let k = i; k < e; k++) docs[at++] = pay[k];
    if (lists + 2 > listCap) {
      listCap *= 2;
      listStart = grow(listStart, listCap);
      if (keyHi) keyHi = grow(keyHi, listCap);
      if (keyLo) keyLo = grow(keyLo, listCap);
    }
    listStart[lists] = m;
    if (keyHi && keyLo) { keyHi[lists] = h; keyLo[lists] = l; }
    lists++;
    m += len;
  };

  for (let p = 0; p < parts; p++) {
    partStart[p] = lists;
    const from = partFirst[p], c = partFirst[p + 1] - from;
    const a = { hi: all.hi.subarray(from, from + c), lo: all.lo.subarray(from, from + c), pay: all.pay.subarray(from, from + c) };
    const aHi = a.hi, aLo = a.lo, aPay = a.pay;
    sortKeyedFast(a, t, c);
    // Base lists of this partition, in key order: a merge of two sorted runs.
    const bOrder = baseOrder?.order;
    let bi = baseOrder ? baseOrder.start[p] : 0;
    const bEnd = baseOrder ? baseOrder.start[p + 1] : 0;
    let i = 0;
    while (i < c || bi < bEnd) {
      const bl = bi >= bEnd ? -1 : bOrder ? bOrder[bi] : bi;
      if (i >= c) { emit(bHi![bl], bLo![bl], bl, aPay, 0, 0); bi++; continue; }
      const h = aHi[i], l = aLo[i];
      let e = i + 1;
      while (e < c && aHi[e] === h && aLo[e] === l) e++;
      if (bl >= 0) {
        const kh = bHi![bl], kl = bLo![bl];
        if (kh < h || (kh === h && kl < l)) { emit(kh, kl, bl, aPay, 0, 0); bi++; continue; }
        if (kh === h && kl === l) { emit(h, l, bl, aPay, i, e); bi++; i = e; continue; }
      }
      emit(h, l, -1, aPay, i, e);
      i = e;
    }
  }
  partStart[parts] = lists;
  listStart[lists] = m;
  return {
    docs: docs.subarray(0, m), listStart: listStart.subarray(0, lists + 1), lists,
    keyHi: keyHi?.subarray(0, lists), keyLo: keyLo?.subarray(0, lists),
    partitionBits: bits, partStart, ignoredShingles, ignoredPostings, ignoredPerDoc,
  };
}

/**
 * The base's lists grouped by their partition at `bits` (≥ the base's): `order[start[p]..start[p+1])`
 * (list numbers themselves when `order` is absent) are the lists of partition p in key order. A base partition splits into 2^(bits − base bits)
 * partitions; a stable counting pass keeps each part in key order.
 */
function baseLists(base: PostingLists, bits: number): { order?: Uint32Array; start: Uint32Array } {
  const parts = 1 << bits, lists = base.lists;
  if (bits === base.partitionBits) return { start: base.partStart }; // lists already in partition order
  if (bits < base.partitionBits) throw new Error('buildPostings: fewer partitions than the base');
  const keyHi = base.keyHi!, keyLo = base.keyLo!;
  const part = new Uint16Array(lists);
  const start = new Uint32Array(parts + 1);
  for (let l = 0; l < lists; l++) { const p = partitionOf(keyHi[l], keyLo[l], bits); part[l] = p; start[p + 1]++; }
  for (let p = 0; p < parts; p++) start[p + 1] += start[p];
  const cursor = start.slice(0, parts);
  const order = new Uint32Array(lists);
  for (let l = 0; l < lists; l++) order[cursor[part[l]]++] = l;
  return { order, start };
}

/** Finds the list holding a key (binary search within its partition); -1 when absent. */
export function findList(post: PostingLists, hi: number, lo: number): number {
  const keyHi = post.keyHi!, keyLo = post.keyLo!;
  const p = partitionOf(hi, lo, post.partitionBits);
  let l = post.partStart[p], r = post.partStart[p + 1];
  while (l < r) {
    const mid = (l + r) >>> 1;
    const mh = keyHi[mid];
    if (mh < hi || (mh === hi && keyLo[mid] < lo)) l = mid + 1; else r = mid;
  }
  return l < post.partStart[p + 1] && keyHi[l] === hi && keyLo[l] === lo ? l : -1;
}

/** A copy of `a` with room for at least `need` elements (capacity doubles). */
export function grow<T extends Uint32Array | Float64Array | Int32Array | Uint8Array>(a: T, need: number): T {
  let cap = Math.max(16, a.length);
  while (cap < need) cap *= 2;
  const b = new (a.constructor as new (n: number) => T)(cap);
  b.set(a);
  return b;
}
