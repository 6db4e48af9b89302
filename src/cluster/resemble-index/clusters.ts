// The index's clusters (paper, "Lost and found"): a union-find over every DocId, kept up as sweeps
// come in and documents go. A new sweep merges into the existing clusters: documents equivalent to
// an indexed one short-cut through the whole-document fingerprints; the others are compared with
// each other and looked up in the postings, so nothing already clustered is clustered again.
// Clusters are numbered as `findNearDuplicates` numbers them: clusters of two or more live
// documents, ordered by their smallest DocId, 0, 1, 2…
import { words, HI as HI_WORD, LO as LO_WORD, type ClusterColumns } from '../../sketch/columns.js';
import { KIND_IDENTICAL, KIND_LEXICAL, KIND_SHINGLE, setAside } from '../equivalence.js';
import { C_AB, C_BA, SetEstimator, type Row } from '../../sketch/row-estimates.js';
import { candidatePairs, nonEmpty } from '../candidate-pairs.js';
import type { PairTable } from '../pairs.js';
import { UnionFind } from '../union-find.js';
import { WordTable } from '../../word-table.js';
import type { AddResult, DocumentMeta, PairRequest, ResolvedIndexOptions } from './options.js';
import type { CandidateScan, IndexPostings } from './postings.js';
import type { IndexStore, SweepColumns } from './store.js';

// Word positions as module constants: imported bindings are slower to read in hot loops.
const HI = HI_WORD, LO = LO_WORD;

/** Takes a PairRequest; returns its candidate pairs, found in memory. */
export function pairsAmong(r: PairRequest): PairTable {
  return candidatePairs(r.columns, r.columns, r.docs, r.cap, r.floor).pairs;
}

/** Takes the steps of a sweep; runs them with the candidate pairs found in memory and returns what they return. */
export function inMemory<T>(steps: Generator<PairRequest, T, PairTable>): T {
  let r = steps.next();
  while (!r.done) r = steps.next(pairsAmong(r.value));
  return r.value;
}

/** Live documents grouped by cluster, and the clusters of two or more numbered. */
interface Groups {
  offsets: Uint32Array;
  members: Uint32Array;
  /** Per union-find root, its group, -1 for none. */
  slot: Int32Array;
  /** Per group, its cluster number, -1 for a group of one. */
  number: Int32Array;
  /** The clusters of two or more, by number. */
  list: Uint32Array[];
}

/** The clusters of a store's documents: a union-find, the fingerprint maps that short-cut copies, and the numbering. */
export class IndexClusters {
  private uf = new UnionFind(0);
  private fpMaps?: { maps: [WordTable, WordTable, WordTable]; end: number };
  private grouped?: Groups;

  /** Takes the store, its postings and the policy. */
  constructor(private readonly store: IndexStore, private readonly postings: IndexPostings, private readonly options: ResolvedIndexOptions) {}

  /** Takes the union-find roots saved with an index; adopts them. */
  adopt(roots: Int32Array): void {
    this.uf = UnionFind.fromRoots(roots);
    this.grouped = undefined;
  }

  /** The union-find root of every DocId (what a file saves). */
  roots(): Int32Array {
    return this.uf.roots();
  }

  private maps(): { maps: [WordTable, WordTable, WordTable]; end: number } {
    const s = this.store;
    if (this.fpMaps && this.fpMaps.end === s.n) return this.fpMaps;
    const maps: [WordTable, WordTable, WordTable] = [new WordTable(s.live, -1, 2), new WordTable(s.live, -1, 2), new WordTable(s.live, -1, 2)];
    const cols = s.columns();
    const fps = [cols.rawFp!, cols.lexicalFp!, cols.shingleFp!].map(words);
    for (let d = 0; d < s.n; d++) {
      if (s.removed[d]) continue;
      for (let l = 0; l < 3; l++) if (s.eligible(d, l)) maps[l].setIfAbsent(fps[l][2 * d + HI], fps[l][2 * d + LO], d);
    }
    this.fpMaps = { maps, end: s.n };
    return this.fpMaps;
  }

  /** Takes a sweep's columns and metadata; the steps that insert it, yielding each request for candidate pairs and returning what was done. */
  *sweep(set: SweepColumns, meta: DocumentMeta): Generator<PairRequest, AddResult, PairTable> {
    const s = this.store;
    s.check(set, meta);
    const k = set.size;
    const n0 = s.n;
    // Cross-sweep lookups go to the postings, so they must cover every indexed document.
    this.postings.indexUpTo(n0);
    const maps = this.maps();
    s.append(set, meta);
    this.uf.extend(s.n);
    this.grouped = undefined;
    const cols = s.columns();

    // 1. Equivalent to an indexed document: join it, skip every other step.
    const counts = [0, 0, 0, 0];
    const level = this.options.equivalence;
    const levels = level === 'none' ? 0 : level === 'identical' ? 1 : level === 'lexical' ? 2 : 3;
    const fps = [cols.rawFp!, cols.lexicalFp!, cols.shingleFp!].map(words);
    const rest: number[] = [];
    for (let d = n0; d < s.n; d++) {
      let hit = -1, code = 0;
      for (let l = 0; l < levels && hit < 0; l++) {
        if (!s.eligible(d, l)) continue;
        const old = maps.maps[l].get(fps[l][2 * d + HI], fps[l][2 * d + LO]);
        // A removed document left in the map (no live equivalent was left) is a miss.
        if (old >= 0 && old < n0 && !s.removed[old]) { hit = old; code = [KIND_IDENTICAL, KIND_LEXICAL, KIND_SHINGLE][l]; }
      }
      if (hit >= 0) { this.uf.union(d, hit); counts[code]++; } else rest.push(d);
    }
    for (let d = n0; d < s.n; d++) {
      for (let l = 0; l < 3; l++) {
        if (!s.eligible(d, l)) continue;
        const hi = fps[l][2 * d + HI], lo = fps[l][2 * d + LO];
        const old = maps.maps[l].setIfAbsent(hi, lo, d);
        if (old !== d && s.removed[old]) maps.maps[l].set(hi, lo, d);
      }
    }
    maps.end = s.n;

    // 2. Among the new documents: equivalence, then candidate pairs, as in batch clustering.
    const joins = yield* this.clusteringAmong(Uint32Array.from(rest));

    // 3. New against indexed: look each kept new document up in the postings.
    let cross = 0;
    const kept = joins.kept;
    if (n0 > 0 && kept.length > 0) {
      const est = new SetEstimator(cols);
      const row: Row = { w: words(cols.values), start: 0, end: 0, cardinality: 0, modulusLog2: 0 };
      for (const d of kept) {
        est.row(d, row);
        // One accepted member of a cluster joins d to all of it: the rest are not estimated.
        const scan: CandidateScan = { cap: this.options.commonCap, exclude: -1, below: n0, threshold: this.options.threshold, containment: this.options.containment, skip: (old) => this.uf.find(old) === this.uf.find(d) };
        this.postings.candidates(row, est, scan, (old) => {
          if (this.accepts(est.out[0], est.out[C_AB], est.out[C_BA]) && this.uf.union(d, old)) cross++;
        });
      }
    }
    return { first: n0, count: k, identical: counts[1], lexical: counts[2], shingle: counts[3], joins: joins.joins + cross };
  }

  private accepts(r: number, cab: number, cba: number): boolean {
    const c = this.options.containment;
    return r >= this.options.threshold || (c !== undefined && (cab >= c || cba >= c));
  }

  /**
   * Clusters `docs` (ascending) among themselves into the union-find: equivalence, then pairs.
   * Works on a copy of just their rows, so the cost follows the sweep, not the index.
   */
  private *clusteringAmong(docs: Uint32Array): Generator<PairRequest, { joins: number; kept: Uint32Array }, PairTable> {
    const s = this.store;
    const k = docs.length;
    if (k < 2) return { joins: 0, kept: docs.filter((d) => s.offsets[d + 1] > s.offsets[d]) };
    const local = s.gather(docs);
    const priority = new Float64Array(k);
    for (let i = 0; i < k; i++) priority[i] = i;
    // Documents with unknown fingerprints (0n) skip equivalence and go straight to the pairs.
    const known: number[] = [], unknown = new Uint8Array(k);
    for (let i = 0; i < k; i++) if (local.rawFp[i] !== 0n) known.push(i); else unknown[i] = 1;
    const eq = setAside(local, this.options.equivalence, priority, Uint32Array.from(known));
    for (const i of known) if (eq.via[i] >= 0) this.uf.union(docs[i], docs[eq.via[i]]);
    const keptLocal: number[] = [];
    for (let i = 0; i < k; i++) if (unknown[i] || (eq.via[i] < 0)) keptLocal.push(i);
    const kept = nonEmpty(local, Uint32Array.from(keptLocal));
    let joins = 0;
    if (kept.length >= 2) {
      const floor = Math.min(this.options.threshold, this.options.containment ?? 1);
      const pairs = yield { columns: local as ClusterColumns, docs: kept, cap: this.options.commonCap, floor };
      for (let i = 0; i < pairs.count; i++) {
        if (this.accepts(pairs.resemblance[i], pairs.containmentAB[i], pairs.containmentBA[i])) { this.uf.union(docs[pairs.a[i]], docs[pairs.b[i]]); joins++; }
      }
    }
    return { joins, kept: kept.map((i) => docs[i]) };
  }

  /**
   * Takes DocIds (checked); marks the live ones removed and re-forms their clusters from the
   * remaining members. Returns how many were removed.
   */
  remove(ids: ArrayLike<number>): number {
    const s = this.store;
    const roots = new Set<number>();
    let removed = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (s.removed[id]) continue;
      roots.add(this.uf.find(id));
      s.removed[id] = 1;
      removed++;
    }
    if (removed === 0) return 0;
    s.live -= removed;
    this.postings.staleRemovals += removed;
    this.grouped = undefined;
    // A removed document may have been the only link between parts of its cluster.
    const members: number[] = [];
    for (let d = 0; d < s.n; d++) if (roots.has(this.uf.find(d))) members.push(d);
    this.repointMaps(ids, members);
    for (const d of members) this.uf.reset(d);
    const liveMembers = Uint32Array.from(members.filter((d) => !s.removed[d]));
    if (liveMembers.length > 1) inMemory(this.clusteringAmong(liveMembers));
    return removed;
  }

  /**
   * Points fingerprint-map entries held by removed documents at a live equivalent, which is
   * always in the same (old) cluster; with none left the entry stays and reads as a miss.
   */
  private repointMaps(ids: ArrayLike<number>, members: number[]): void {
    const maps = this.fpMaps;
    if (!maps) return;
    const s = this.store;
    const cols = [s.rawFp, s.lexicalFp, s.shingleFp];
    for (let i = 0; i < ids.length; i++) {
      const r = ids[i];
      if (r >= maps.end) continue;
      for (let l = 0; l < 3; l++) {
        if (!s.eligible(r, l)) continue;
        const fp = cols[l][r];
        const w = words(cols[l].subarray(r, r + 1));
        if (maps.maps[l].get(w[HI], w[LO]) !== r) continue;
        const heir = members.find((m) => m < maps.end && !s.removed[m] && cols[l][m] === fp && s.eligible(m, l));
        if (heir !== undefined) maps.maps[l].set(w[HI], w[LO], heir);
      }
    }
  }

  /** Takes a DocId (checked); returns its cluster's number, -1 when it is removed or in no cluster of two or more. */
  clusterOf(id: number): number {
    if (this.store.removed[id]) return -1;
    const g = this.groups();
    return g.number[g.slot[this.uf.find(id)]];
  }

  /** The clusters of two or more live documents, each as its ascending members, by number. */
  clusters(): Uint32Array[] {
    return this.groups().list;
  }

  private groups(): Groups {
    if (this.grouped) return this.grouped;
    const s = this.store;
    const n = s.n;
    const slot = new Int32Array(n).fill(-1);
    let count = 0;
    const root = new Int32Array(n);
    for (let d = 0; d < n; d++) {
      if (s.removed[d]) continue;
      const r = this.uf.find(d);
      root[d] = r;
      if (slot[r] < 0) slot[r] = count++;
    }
    const offsets = new Uint32Array(count + 1);
    for (let d = 0; d < n; d++) if (!s.removed[d]) offsets[slot[root[d]] + 1]++;
    for (let c = 0; c < count; c++) offsets[c + 1] += offsets[c];
    const cursor = offsets.slice(0, count);
    const members = new Uint32Array(offsets[count]);
    for (let d = 0; d < n; d++) if (!s.removed[d]) members[cursor[slot[root[d]]]++] = d;
    // Groups are in order of their smallest member, so numbering those of two or more in group order numbers them by it.
    const number = new Int32Array(count).fill(-1);
    const list: Uint32Array[] = [];
    for (let c = 0; c < count; c++) {
      if (offsets[c + 1] - offsets[c] < 2) continue;
      number[c] = list.length;
      list.push(members.subarray(offsets[c], offsets[c + 1]));
    }
    this.grouped = { offsets, members, slot, number, list };
    return this.grouped;
  }

  /** Takes a DocId (checked, live); returns the live members of its group, ascending (itself alone when in no cluster). */
  groupOf(id: number): Uint32Array {
    const g = this.groups();
    const c = g.slot[this.uf.find(id)];
    return g.members.subarray(g.offsets[c], g.offsets[c + 1]);
  }

  /**
   * Takes a key; returns the key of the newest document (by crawl date, unknown dates oldest, then
   * highest DocId) in the cluster of any live document with this key; undefined when unknown.
   */
  newest(key: string): string | undefined {
    const s = this.store;
    let best = -1;
    for (const d of s.docIds(key)) {
      for (const m of this.groupOf(d)) {
        if (s.urls[m] === undefined) continue;
        if (best < 0 || newer(s.dates[m], m, s.dates[best], best)) best = m;
      }
    }
    return best < 0 ? undefined : s.urls[best];
  }
}

function newer(ta: number, a: number, tb: number, b: number): boolean {
  const x = Number.isNaN(ta) ? -Infinity : ta, y = Number.isNaN(tb) ? -Infinity : tb;
  return x > y || (x === y && a > b);
}
