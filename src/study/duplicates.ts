/**
 * Duplicate and near-duplicate clusters of shingle-paragraph multisets with the subcollection
 * algorithm of Pereira et al. (§3): the collection C is cut into m parts S_0 .. S_{m−1}; in step i
 * the paragraphs of S_i are loaded into hash tables, every document of C probes them, and S_i is
 * dropped from C. Only one part's tables are in memory at a time (beside the fingerprint columns
 * and, for near-duplicates, one count per distinct paragraph); each pair of documents is examined
 * in the step of the earlier part, so the final clusters do not depend on m.
 *
 * Duplicates (Definition 2) compare paragraph multisets: same number of paragraphs and each
 * paragraph as often in one as in the other. The paper only asks that every paragraph of one be
 * found in the other, which matches `e d e d` with `e d d d`; multisets never do.
 * Near-duplicates (Definition 5) at p%: the multiset intersection holds at least p% of the
 * paragraphs of both documents. Clusters are the connected components of the matching pairs.
 */
import { HI, LO, UnionFind } from '../cluster/index.js';
import { intOption, optionError, rejectUnknown } from '../errors.js';
import type { ParagraphColumns } from './columns.js';
import { WordTable } from '../word-table.js';

/** Options of `findDuplicates`. */
export interface DuplicateOptions {
  /** m, the number of subcollections (parts) the collection is cut into (§3). Default 1. */
  parts?: number;
  /**
   * Near-duplicate thresholds: minimal percentages of identical shingle paragraphs (Definition 5).
   * Default [90, 70, 50]; [] skips the paragraph tables (exact duplicates only: one whole-multiset
   * lookup per document and step).
   */
  near?: number[];
  /** Run only the first this-many steps (the paper's partial runs, §4.2). Default: all m. */
  stopAfter?: number;
}

/** Clusters as a label per member position. */
export interface Clustering {
  /** Member position → cluster id (numbered in order of first member), −1 for unique documents. */
  label: Int32Array;
  /** Size of each cluster. */
  sizes: Uint32Array;
  /** Number of clusters (= original duplicated documents, Definition 3). */
  clusters: number;
  /** Documents in clusters. */
  clustered: number;
  /** Clustered documents beyond the original of each cluster (Definition 4). */
  duplicates: number;
}

/** State after one step of the subcollection algorithm (Figure 5). */
export interface GrowthPoint {
  /** 1-based step. */
  iteration: number;
  /** Documents in S_0 .. S_i: the paper's linear curve. */
  documents: number;
  clusters: number;
  duplicates: number;
}

/** What `findDuplicates` returns. */
export interface DuplicateResult {
  /** Member position → position in the columns (the documents this run looked at). */
  members: Uint32Array;
  parts: number;
  /** Steps run (m unless stopped early). */
  iterations: number;
  exact: Clustering;
  near: Array<Clustering & { percent: number }>;
  growth: GrowthPoint[];
}

/**
 * Takes paragraph columns and, optionally, the positions to look at (default: all, in order);
 * returns duplicate and near-duplicate clusters and the per-step growth.
 */
export function findDuplicates(cols: ParagraphColumns, members?: Uint32Array, options: DuplicateOptions = {}): DuplicateResult {
  rejectUnknown(options, ['parts', 'near', 'stopAfter'], 'findDuplicates');
  const near = nearThresholds(options.near);
  const all = members ?? Uint32Array.from({ length: cols.docIds.length }, (_, i) => i);
  const n = all.length;
  const m = intOption('parts', options.parts, 1, 1, Math.max(1, n));
  const steps = intOption('stopAfter', options.stopAfter, m, 0, m);
  const { offsets, words } = cols;
  const start = (p: number) => offsets[all[p]];
  const count = (p: number) => offsets[all[p] + 1] - offsets[all[p]];

  // Whole-multiset key per member: two 32-bit hashes of the sorted fingerprints (and the count).
  const h1 = new Uint32Array(n), h2 = new Uint32Array(n);
  for (let p = 0; p < n; p++) {
    let x = 0x9e3779b9 ^ count(p), y = 0x85ebca6b;
    for (let f = start(p), end = f + count(p); f < end; f++) {
      const lo = words[2 * f], hi = words[2 * f + 1];
      x = Math.imul(x ^ lo, 0x01000193) ^ Math.imul(hi, 0x5bd1e995);
      x ^= x >>> 15;
      y = Math.imul(y ^ hi, 0xcc9e2d51) + Math.imul(lo, 0x1b873593);
      y ^= y >>> 13;
    }
    h1[p] = x;
    h2[p] = y;
  }
  const sameMultiset = (a: number, b: number) => {
    const na = count(a);
    if (na !== count(b)) return false;
    const fa = 2 * start(a), fb = 2 * start(b);
    for (let i = 0; i < 2 * na; i++) if (words[fa + i] !== words[fb + i]) return false;
    return true;
  };

  // Classes of equal multisets (−1: no paragraphs). A copy relates to every member as the first of
  // its class does, so only the first in each step probes and is indexed for near duplicates: a
  // page copied 10,000 times costs one probe, not 10,000 probes over 10,000 candidates.
  const classOf = new Int32Array(n).fill(-1);
  let classes = 0;
  {
    const heads = new WordTable(n, -1);
    const nextRep = new Int32Array(n);
    for (let p = 0; p < n; p++) {
      if (count(p) === 0) continue;
      const slot = heads.slot(h1[p], h2[p], count(p));
      let r = heads.values[slot];
      while (r >= 0 && !sameMultiset(p, r)) r = nextRep[r];
      if (r >= 0) classOf[p] = classOf[r];
      else { nextRep[p] = heads.values[slot]; heads.values[slot] = p; classOf[p] = classes++; }
    }
  }
  const firstAt = new Int32Array(classes);
  const probeRep = new Int32Array(n);

  const exact = new UnionFind(n);
  const tally = { clusters: 0, duplicates: 0 };
  const nearSets = near.map(() => new UnionFind(n));
  const growth: GrowthPoint[] = [];
  const minNear = Math.min(...near);
  const prefixes = near.length > 0 ? prefixElements(cols, all, minNear) : undefined;
  // stamp[e] = d + 1 once candidate e was looked at for probe d (no clearing between probes).
  const stamp = new Uint32Array(n);
  for (let i = 0; i < steps; i++) {
    const lo = Math.floor((i * n) / m), hi = Math.floor(((i + 1) * n) / m);
    // Step i's tables: whole multisets of S_i (key → chain of members), and their prefix elements.
    const wholes = new WordTable(hi - lo, -1);
    const next = new Int32Array(hi - lo);
    for (let p = hi - 1; p >= lo; p--) {
      if (count(p) === 0) continue;
      const slot = wholes.slot(h1[p], h2[p], count(p));
      next[p - lo] = wholes.values[slot];
      wholes.values[slot] = p;
    }
    // the first member of each class from lo on
    firstAt.fill(-1);
    for (let p = lo; p < n; p++) {
      const c = classOf[p];
      if (c < 0) continue;
      if (firstAt[c] < 0) firstAt[c] = p;
      probeRep[p] = firstAt[c];
    }
    const table = prefixes ? prefixTable(cols, prefixes, lo, hi, probeRep) : undefined;
    for (let d = lo; d < n; d++) {
      const nd = count(d);
      if (nd === 0) continue;
      const slot = wholes.find(h1[d], h2[d], nd);
      for (let e = slot < 0 ? -1 : wholes.values[slot]; e >= 0; e = next[e - lo]) {
        if (e !== d && sameMultiset(d, e)) {
          join(exact, d, e, tally);
          break; // the others equal to e are joined when they probe
        }
      }
      if (!prefixes || !table) continue;
      if (probeRep[d] !== d) {
        // equal multisets are near duplicates at every threshold; the first of the class probed for both
        for (let t = 0; t < near.length; t++) nearSets[t].union(d, probeRep[d]);
        continue;
      }
      // Candidates: members of S_i whose prefix shares an element with d's prefix; then the exact count.
      for (let x = prefixes.offsets[d]; x < prefixes.offsets[d + 1]; x++) {
        const f = prefixes.f[x];
        const at = table.heads.find(words[2 * f + 1], words[2 * f], prefixes.j[x]);
        for (let y = at < 0 ? -1 : table.heads.values[at]; y >= 0; y = table.next[y]) {
          const e = table.member[y];
          if (e === d || stamp[e] === d + 1) continue;
          stamp[e] = d + 1;
          const ne = count(e);
          if (100 * Math.min(nd, ne) < minNear * Math.max(nd, ne)) continue;
          const shared = sharedCount(words, start(d), nd, start(e), ne);
          const need = Math.max(nd, ne);
          for (let t = 0; t < near.length; t++) if (100 * shared >= near[t] * need) nearSets[t].union(d, e);
        }
      }
    }
    growth.push({ iteration: i + 1, documents: hi, clusters: tally.clusters, duplicates: tally.duplicates });
  }
  return {
    members: all,
    parts: m,
    iterations: steps,
    exact: clustering(exact),
    near: near.map((percent, t) => ({ percent, ...clustering(nearSets[t]) })),
    growth,
  };
}

/** Takes near-duplicate thresholds (or undefined); returns them validated (default [90, 70, 50]). */
export function nearThresholds(value: unknown): number[] {
  if (value === undefined) return [90, 70, 50];
  if (!Array.isArray(value) || value.some((p) => typeof p !== 'number' || !(p > 0 && p <= 100))) {
    throw optionError('near', 'array of percentages in (0, 100]', value);
  }
  return [...value];
}

/**
 * Multiset elements in the prefix filter's global order. The j-th copy of paragraph x is the element
 * (x, j), so multiset intersection is set intersection of elements. Elements are ordered rarest
 * paragraph first (occurrences over the members), then by fingerprint and copy. Two multisets
 * sharing at least t = ⌈p·max(|a|, |b|)/100⌉ elements share one among the first |a| − ⌈p·|a|/100⌉ + 1
 * of a and the first |b| − ⌈p·|b|/100⌉ + 1 of b (prefix filtering), so only those are indexed and
 * probed; boilerplate paragraphs, common hence last, rarely are.
 */
function prefixElements(cols: ParagraphColumns, all: Uint32Array, minNear: number) {
  const { offsets, words } = cols;
  let total = 0;
  for (let p = 0; p < all.length; p++) total += offsets[all[p] + 1] - offsets[all[p]];
  const frequency = new WordTable(total, 0, 2);
  for (let p = 0; p < all.length; p++) {
    for (let f = offsets[all[p]]; f < offsets[all[p] + 1]; f++) {
      const s = frequency.slot(words[2 * f + 1], words[2 * f]);
      frequency.values[s]++;
    }
  }
  const prefixOffsets = new Uint32Array(all.length + 1);
  const lengths = new Uint32Array(all.length);
  for (let p = 0; p < all.length; p++) {
    const n = offsets[all[p] + 1] - offsets[all[p]];
    // t = the least count passing the same test as the verification (100·t ≥ p·n), free of rounding in p·n/100.
    let t = Math.ceil((minNear * n) / 100);
    while (t > 0 && 100 * (t - 1) >= minNear * n) t--;
    while (100 * t < minNear * n) t++;
    lengths[p] = n === 0 ? 0 : n - t + 1;
    prefixOffsets[p + 1] = prefixOffsets[p] + lengths[p];
  }
  const fs = new Uint32Array(prefixOffsets[all.length]), js = new Uint32Array(prefixOffsets[all.length]);
  let order = new Uint32Array(16), df = new Uint32Array(16), copy = new Uint32Array(16);
  for (let p = 0; p < all.length; p++) {
    const f0 = offsets[all[p]], n = offsets[all[p] + 1] - f0;
    if (n > order.length) { order = new Uint32Array(2 * n); df = new Uint32Array(2 * n); copy = new Uint32Array(2 * n); }
    for (let i = 0; i < n; i++) {
      const lo = words[2 * (f0 + i)], hi = words[2 * (f0 + i) + 1];
      df[i] = frequency.values[frequency.find(hi, lo, 0)];
      // Copy numbers follow the sorted order: equal fingerprints are adjacent.
      copy[i] = i > 0 && lo === words[2 * (f0 + i - 1)] && hi === words[2 * (f0 + i - 1) + 1] ? copy[i - 1] + 1 : 0;
      order[i] = i;
    }
    // Insertion sort of the (short) paragraph list by (df, position); position order is fingerprint then copy order.
    for (let i = 1; i < n; i++) {
      const v = order[i];
      let k = i - 1;
      while (k >= 0 && df[order[k]] > df[v]) { order[k + 1] = order[k]; k--; }
      order[k + 1] = v;
    }
    for (let x = 0; x < lengths[p]; x++) {
      fs[prefixOffsets[p] + x] = f0 + order[x];
      js[prefixOffsets[p] + x] = copy[order[x]];
    }
  }
  return { offsets: prefixOffsets, f: fs, j: js };
}

/** Prefix elements of S_i = members [lo, hi), chained per element: the hash table of the paper's step i. */
function prefixTable(cols: ParagraphColumns, prefixes: ReturnType<typeof prefixElements>, lo: number, hi: number, probeRep: Int32Array) {
  const { words } = cols;
  const first = prefixes.offsets[lo], entries = prefixes.offsets[hi] - first;
  const member = new Uint32Array(entries);
  const next = new Int32Array(entries);
  const heads = new WordTable(entries, -1);
  for (let p = lo; p < hi; p++) {
    if (probeRep[p] !== p) continue; // a copy: the first of its class stands for it
    for (let x = prefixes.offsets[p]; x < prefixes.offsets[p + 1]; x++) {
      const f = prefixes.f[x], y = x - first;
      const slot = heads.slot(words[2 * f + 1], words[2 * f], prefixes.j[x]);
      member[y] = p;
      next[y] = heads.values[slot];
      heads.values[slot] = y;
    }
  }
  return { heads, next, member };
}

/** Size of the multiset intersection of two sorted fingerprint runs (u32 word pairs), by merging. */
function sharedCount(words: Uint32Array, a: number, na: number, b: number, nb: number): number {
  let i = 0, j = 0, shared = 0;
  while (i < na && j < nb) {
    // High word first: the fingerprints' numeric (sort) order, whatever the platform's byte order.
    const ha = words[2 * (a + i) + HI], hb = words[2 * (b + j) + HI];
    const c = ha !== hb ? ha - hb : words[2 * (a + i) + LO] - words[2 * (b + j) + LO];
    if (c === 0) { shared++; i++; j++; }
    else if (c < 0) i++;
    else j++;
  }
  return shared;
}

/** Unions a and b, keeping count of clusters (sets of two or more) and duplicates (successful unions). */
function join(uf: UnionFind, a: number, b: number, tally: { clusters: number; duplicates: number }): void {
  const ra = uf.find(a), rb = uf.find(b);
  if (ra === rb) return;
  const sa = uf.size[ra], sb = uf.size[rb];
  uf.union(ra, rb);
  tally.clusters += 1 - (sa >= 2 ? 1 : 0) - (sb >= 2 ? 1 : 0);
  tally.duplicates++;
}

/** Labels sets of two or more (numbered in order of their smallest member); singletons get −1. */
function clustering(uf: UnionFind): Clustering {
  const label = new Int32Array(uf.n).fill(-1);
  const ofRoot = new Int32Array(uf.n).fill(-1);
  const sizes: number[] = [];
  let clustered = 0;
  for (let i = 0; i < uf.n; i++) {
    const r = uf.find(i);
    if (uf.size[r] < 2) continue;
    if (ofRoot[r] < 0) {
      ofRoot[r] = sizes.length;
      sizes.push(uf.size[r]);
    }
    label[i] = ofRoot[r];
    clustered++;
  }
  return { label, sizes: Uint32Array.from(sizes), clusters: sizes.length, clustered, duplicates: clustered - sizes.length };
}
