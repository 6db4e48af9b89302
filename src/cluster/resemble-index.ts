// An index for on-the-fly queries and incremental clustering (paper, "On the fly resemblance"
// and "Lost and found"): the sketches of every document, shingle → documents postings, the
// URL ↔ DocId ↔ cluster maps, crawl dates, and a union-find holding the clusters. New sweeps are
// merged into the existing clusters: documents equivalent to an indexed one short-cut through the
// whole-document fingerprints; the others are compared with each other and looked up in the
// postings, so nothing already clustered is clustered again.
import { enumOption, intOption, numberOption, optionError, rejectUnknown } from '../errors.js';
import { assertComparable } from '../sketch/sketch.js';
import type { Sketch } from '../sketch/sketch-set.js';
import { checkColumns, HI as HI_WORD, LO as LO_WORD, words, type ClusterParams, type SketchColumns } from './columns.js';
import { KIND_IDENTICAL, KIND_LEXICAL, KIND_SHINGLE, setAside, type EquivalenceLevel } from './equivalence.js';
import { C_AB, C_BA, SHARED, SetEstimator, type Row } from './estimate.js';
import { candidatePairs, nonEmpty } from './near-duplicates.js';
import { buildPostings, findList, type PostingLists } from './postings.js';
import { U64Map } from './u64-map.js';
import { UnionFind } from './union-find.js';

// Word positions as module constants: imported bindings are slower to read in hot loops.
const HI = HI_WORD, LO = LO_WORD;

/** Options of an index: the policy used when merging sweeps into clusters, and the default for queries. */
export interface IndexOptions {
  /** Resemblance at which documents join a cluster (default 0.5). */
  threshold?: number;
  /** Also join when containment either way reaches this (default: off). */
  containment?: number;
  /** Shingles in more than this many documents do not make candidates when merging (default 1000). */
  commonCap?: number;
  /** Equivalent documents short-cut when merging (default 'shingle'). */
  equivalence?: EquivalenceLevel;
}

/** Per-document metadata of an `add`: URLs and crawl dates (ISO strings or ms since 1970). */
export interface DocumentMeta {
  urls?: ArrayLike<string | undefined>;
  dates?: ArrayLike<string | number | undefined>;
}

/** Options of `query`. */
export interface QueryOptions {
  /** Minimum resemblance of a hit (default: the index threshold). */
  threshold?: number;
  /** Also return documents whose containment either way reaches this (default: the index's, off). */
  containment?: number;
  /** At most this many hits (default all). */
  limit?: number;
  /** Ignore shingles in more than this many documents (default: none ignored). */
  commonCap?: number;
  /** A DocId never returned (the query document itself). */
  exclude?: number;
}

/** A document resembling the query: estimates are the query's against it. */
export interface QueryHit {
  doc: number;
  url?: string;
  /** Crawl date (ISO 8601), when known. */
  date?: string;
  resemblance: number;
  /** Containment of the query in the document, and of the document in the query. */
  containment: number;
  contains: number;
  /** Sketch values shared with the query. */
  shared: number;
  /** The document's cluster (the DocId of its union-find root). */
  cluster: number;
}

/** What an `add` did. */
export interface AddResult {
  /** DocIds given to the new documents: first, first+1, … */
  first: number;
  count: number;
  /** New documents short-cut as identical / lexically / shingle-equivalent to an indexed one. */
  identical: number;
  lexical: number;
  shingle: number;
  /** Pairs over the policy found among the new documents and between new and indexed ones. */
  joins: number;
}

const KNOWN_INDEX = ['threshold', 'containment', 'commonCap', 'equivalence'] as const;

/** Resolved index options. */
export interface ResolvedIndexOptions {
  threshold: number;
  containment?: number;
  commonCap: number;
  equivalence: EquivalenceLevel;
}

/** Validates index options and fills in defaults. */
export function resolveIndexOptions(o: IndexOptions = {}): ResolvedIndexOptions {
  rejectUnknown(o, KNOWN_INDEX, 'ResembleIndex');
  return {
    threshold: numberOption('threshold', o.threshold, 0.5, 0, 1),
    containment: o.containment === undefined ? undefined : numberOption('containment', o.containment, 0, 0, 1),
    commonCap: intOption('commonCap', o.commonCap, 1000, 1, 0x7fffffff),
    equivalence: enumOption('equivalence', o.equivalence, 'shingle', ['none', 'identical', 'lexical', 'shingle'] as const),
  };
}

/** The stored columns of an index (what `save` writes and `load` reads). */
export interface IndexState {
  params: ClusterParams;
  options: ResolvedIndexOptions;
  size: number;
  values: BigUint64Array;
  offsets: Uint32Array;
  cardinality: Float64Array;
  tokens: Uint32Array;
  modulusLog2: Uint8Array;
  rawFp: BigUint64Array;
  lexicalFp: BigUint64Array;
  shingleFp: BigUint64Array;
  dates: Float64Array;
  removed: Uint8Array;
  roots: Int32Array;
  urls: (string | undefined)[];
  postings?: PostingLists;
  baseEnd: number;
  /** Documents removed since the postings were built (they are skipped in queries until rebuilt). */
  staleRemovals: number;
}

/** Parses a crawl date: ms since 1970 as given, ISO 8601 via Date.parse; NaN when unknown. */
export function parseDate(d: string | number | undefined): number {
  if (d === undefined || d === '') return NaN;
  return typeof d === 'number' ? d : Date.parse(d);
}

/**
 * Documents' sketches with postings, URL and cluster maps. Build with `ResembleIndex.build(set)`
 * or `new ResembleIndex(params)` then `add`; every sketch must have the index's parameters.
 */
export class ResembleIndex {
  readonly options: ResolvedIndexOptions;
  private n = 0;
  private nValues = 0;
  private values: BigUint64Array = new BigUint64Array(1024);
  private offsets: Uint32Array = new Uint32Array(1025);
  private cardinality: Float64Array = new Float64Array(1024);
  private tokens: Uint32Array = new Uint32Array(1024);
  private modulusLog2: Uint8Array = new Uint8Array(1024);
  private rawFp: BigUint64Array = new BigUint64Array(1024);
  private lexicalFp: BigUint64Array = new BigUint64Array(1024);
  private shingleFp: BigUint64Array = new BigUint64Array(1024);
  private dates: Float64Array = new Float64Array(1024);
  private removed: Uint8Array = new Uint8Array(1024);
  private urls: (string | undefined)[] = [];
  private prevSameUrl: Int32Array = new Int32Array(1024);
  private lastOfUrl = new Map<string, number>();
  private uf = new UnionFind(0);
  private base?: PostingLists;
  private baseEnd = 0;
  private fpMaps?: { maps: [U64Map, U64Map, U64Map]; end: number };
  private grouped?: { offsets: Uint32Array; members: Uint32Array; slot: Int32Array };
  private counter: Uint32Array = new Uint32Array(0);
  private live = 0;
  private staleRemovals = 0;

  /** An empty index for sketches made with `params`. */
  constructor(readonly params: ClusterParams, options?: IndexOptions) {
    this.options = resolveIndexOptions(options);
  }

  /** An index holding the documents of `set` (URLs and dates in `meta`). */
  static build(set: SketchColumns, meta?: DocumentMeta, options?: IndexOptions): ResembleIndex {
    const index = new ResembleIndex(set.params, options);
    index.add(set, meta);
    return index;
  }

  /** DocIds given so far (removed documents keep theirs). */
  get size(): number { return this.n; }
  /** Documents not removed. */
  get liveCount(): number { return this.live; }

  /** The columns of documents 0..size-1 (views; valid until the next add). */
  columns(): SketchColumns {
    const n = this.n;
    return {
      size: n, params: this.params, values: this.values.subarray(0, this.nValues), offsets: this.offsets.subarray(0, n + 1),
      cardinality: this.cardinality.subarray(0, n), modulusLog2: this.modulusLog2.subarray(0, n),
      rawFp: this.rawFp.subarray(0, n), lexicalFp: this.lexicalFp.subarray(0, n), shingleFp: this.shingleFp.subarray(0, n),
    };
  }

  /** The sketch of document id (a view). */
  sketch(id: number): Sketch {
    this.checkId(id);
    return {
      params: this.params as Sketch['params'], values: this.values.subarray(this.offsets[id], this.offsets[id + 1]),
      cardinality: this.cardinality[id], modulusLog2: this.modulusLog2[id], tokens: this.tokens[id],
    };
  }

  private checkId(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.n) throw optionError('document id', `integer 0..${this.n - 1}`, id);
  }

  private reserve(docs: number, values: number): void {
    const cap = this.cardinality.length;
    if (docs > cap) {
      let c = Math.max(16, cap);
      while (c < docs) c *= 2;
      const g = <T extends Float64Array | Uint32Array | Uint8Array | BigUint64Array | Int32Array>(a: T, len = c): T => {
        const b = new (a.constructor as new (n: number) => T)(len);
        b.set(a as never);
        return b;
      };
      this.offsets = g(this.offsets, c + 1);
      this.cardinality = g(this.cardinality); this.tokens = g(this.tokens); this.modulusLog2 = g(this.modulusLog2);
      this.rawFp = g(this.rawFp); this.lexicalFp = g(this.lexicalFp); this.shingleFp = g(this.shingleFp);
      this.dates = g(this.dates); this.removed = g(this.removed); this.prevSameUrl = g(this.prevSameUrl);
    }
    if (values > this.values.length) {
      let c = Math.max(1024, this.values.length);
      while (c < values) c *= 2;
      const b = new BigUint64Array(c);
      b.set(this.values.subarray(0, this.nValues));
      this.values = b;
    }
  }

  /** Adds a sweep of documents and merges them into the clusters; returns their DocIds and what joined. */
  add(set: SketchColumns & { tokens?: Uint32Array }, meta: DocumentMeta = {}): AddResult {
    assertComparable(set.params as Sketch['params'], this.params as Sketch['params'], 'sketches added to an index');
    checkColumns(set, 'ResembleIndex.add');
    rejectUnknown(meta, ['urls', 'dates'], 'ResembleIndex.add meta');
    const k = set.size;
    if (meta.urls && meta.urls.length !== k) throw optionError('urls', `${k} URLs (one per document)`, `${meta.urls.length}`);
    if (meta.dates && meta.dates.length !== k) throw optionError('dates', `${k} dates (one per document)`, `${meta.dates.length}`);
    // Cross-sweep lookups go to the postings, so they must cover every indexed document.
    if (this.baseEnd < this.n) this.rebuildPostings();
    const n0 = this.n;
    const maps = this.maps();

    this.reserve(n0 + k, this.nValues + set.values.length);
    this.values.set(set.values, this.nValues);
    for (let i = 0; i < k; i++) this.offsets[n0 + i + 1] = this.nValues + set.offsets[i + 1];
    this.nValues += set.values.length;
    this.cardinality.set(set.cardinality, n0);
    if (set.tokens) this.tokens.set(set.tokens, n0); else this.tokens.fill(0, n0, n0 + k);
    if (set.modulusLog2) this.modulusLog2.set(set.modulusLog2, n0); else this.modulusLog2.fill(0, n0, n0 + k);
    // Documents without whole-document fingerprints get none that could match (all-ones never does in practice).
    for (const [dst, src] of [[this.rawFp, set.rawFp], [this.lexicalFp, set.lexicalFp], [this.shingleFp, set.shingleFp]] as const) {
      if (src) dst.set(src, n0); else dst.fill(0n, n0, n0 + k);
    }
    for (let i = 0; i < k; i++) {
      const d = n0 + i;
      this.dates[d] = parseDate(meta.dates?.[i]);
      this.removed[d] = 0;
      const url = meta.urls?.[i];
      this.urls[d] = url;
      this.prevSameUrl[d] = -1;
      if (url !== undefined) {
        const prev = this.lastOfUrl.get(url);
        if (prev !== undefined) this.prevSameUrl[d] = prev;
        this.lastOfUrl.set(url, d);
      }
    }
    this.n = n0 + k;
    this.live += k;
    this.uf.extend(this.n);
    this.grouped = undefined;
    const cols = this.columns();

    // 1. Equivalent to an indexed document: join it, skip every other step.
    const counts = [0, 0, 0, 0];
    const level = this.options.equivalence;
    const levels = level === 'none' ? 0 : level === 'identical' ? 1 : level === 'lexical' ? 2 : 3;
    const fps = [cols.rawFp!, cols.lexicalFp!, cols.shingleFp!].map(words);
    const rest: number[] = [];
    for (let d = n0; d < this.n; d++) {
      let hit = -1, code = 0;
      for (let l = 0; l < levels && hit < 0; l++) {
        if (!this.eligible(d, l)) continue;
        const old = maps.maps[l].get(fps[l][2 * d + HI], fps[l][2 * d + LO]);
        if (old >= 0 && old < n0) { hit = old; code = [KIND_IDENTICAL, KIND_LEXICAL, KIND_SHINGLE][l]; }
      }
      if (hit >= 0) { this.uf.union(d, hit); counts[code]++; } else rest.push(d);
    }
    for (let d = n0; d < this.n; d++) {
      for (let l = 0; l < 3; l++) if (this.eligible(d, l)) maps.maps[l].setIfAbsent(fps[l][2 * d + HI], fps[l][2 * d + LO], d);
    }
    maps.end = this.n;

    // 2. Among the new documents: equivalence, then candidate pairs, as in batch clustering.
    const joins = this.clusterAmong(cols, Uint32Array.from(rest));

    // 3. New against indexed: look each kept new document up in the postings.
    let cross = 0;
    const kept = joins.kept;
    if (n0 > 0 && kept.length > 0) {
      const est = new SetEstimator(cols);
      const row: Row = { w: words(cols.values), start: 0, end: 0, cardinality: 0, modulusLog2: 0 };
      for (const d of kept) {
        est.row(d, row);
        this.candidates(row, est, this.options.commonCap, -1, (old) => {
          if (this.accepts(est.out[0], est.out[C_AB], est.out[C_BA])) { this.uf.union(d, old); cross++; }
        }, n0);
      }
    }
    return { first: n0, count: k, identical: counts[1], lexical: counts[2], shingle: counts[3], joins: joins.joins + cross };
  }

  private eligible(d: number, level: number): boolean {
    if (level === 1) return this.cardinality[d] > 0;
    if (level === 2) return this.offsets[d + 1] > this.offsets[d];
    return true;
  }

  private accepts(r: number, cab: number, cba: number): boolean {
    const c = this.options.containment;
    return r >= this.options.threshold || (c !== undefined && (cab >= c || cba >= c));
  }

  /** Clusters `docs` (ascending) among themselves into the union-find: equivalence, then pairs. */
  private clusterAmong(cols: SketchColumns, docs: Uint32Array): { joins: number; kept: Uint32Array } {
    const priority = new Float64Array(cols.size);
    for (let d = 0; d < cols.size; d++) priority[d] = d;
    const eq = setAside(cols, this.options.equivalence, priority, docs);
    for (const d of docs) if (eq.via[d] >= 0) this.uf.union(d, eq.via[d]);
    const kept = nonEmpty(cols, eq.kept);
    const floor = Math.min(this.options.threshold, this.options.containment ?? 1);
    const { pairs } = candidatePairs(cols, cols, kept, this.options.commonCap, floor);
    let joins = 0;
    for (let i = 0; i < pairs.count; i++) {
      if (this.accepts(pairs.resemblance[i], pairs.containmentAB[i], pairs.containmentBA[i])) { this.uf.union(pairs.a[i], pairs.b[i]); joins++; }
    }
    return { joins, kept };
  }

  /**
   * Calls `found(doc)` for every live document sharing a value with `row` (lists longer than `cap`
   * skipped) among those below `below` (default all), after estimating it into `est.out`.
   */
  private candidates(row: Row, est: SetEstimator, cap: number, exclude: number, found: (doc: number) => void, below = this.n): void {
    const post = this.base;
    const n = this.n;
    if (this.counter.length < n) this.counter = new Uint32Array(Math.max(n, this.counter.length * 2));
    const counter = this.counter;
    const touched: number[] = [];
    if (post) {
      for (let j = row.start; j < row.end; j++) {
        const l = findList(post, row.w[2 * j + HI], row.w[2 * j + LO]);
        if (l < 0) continue;
        const s = post.listStart[l], e = post.listStart[l + 1];
        if (e - s > cap) continue;
        for (let q = s; q < e; q++) {
          const d = post.docs[q];
          if (d >= below || this.removed[d] || d === exclude) continue;
          if (counter[d]++ === 0) touched.push(d);
        }
      }
    }
    for (const d of touched) counter[d] = 0;
    // Documents added since the postings were built are compared directly.
    for (let d = this.baseEnd; d < Math.min(below, n); d++) {
      if (!this.removed[d] && d !== exclude && this.offsets[d + 1] > this.offsets[d]) touched.push(d);
    }
    touched.sort((a, b) => a - b);
    for (const d of touched) { est.against(row, d); found(d); }
  }

  /** Rebuilds the postings over every live document. */
  rebuildPostings(): void {
    const cols = this.columns();
    const live = new Uint32Array(this.live);
    let k = 0;
    for (let d = 0; d < this.n; d++) if (!this.removed[d]) live[k++] = d;
    this.base = buildPostings(cols.values, cols.offsets, { cap: 0x7fffffff, keepSingletons: true, keepKeys: true, docs: live });
    this.baseEnd = this.n;
    this.staleRemovals = 0;
  }

  private maps(): { maps: [U64Map, U64Map, U64Map]; end: number } {
    if (this.fpMaps && this.fpMaps.end === this.n) return this.fpMaps;
    const maps: [U64Map, U64Map, U64Map] = [new U64Map(this.live), new U64Map(this.live), new U64Map(this.live)];
    const cols = this.columns();
    const fps = [cols.rawFp!, cols.lexicalFp!, cols.shingleFp!].map(words);
    for (let d = 0; d < this.n; d++) {
      if (this.removed[d]) continue;
      for (let l = 0; l < 3; l++) if (this.eligible(d, l)) maps[l].setIfAbsent(fps[l][2 * d + HI], fps[l][2 * d + LO], d);
    }
    this.fpMaps = { maps, end: this.n };
    return this.fpMaps;
  }

  /** Removes documents; their clusters are re-formed from the remaining members. Returns how many were live. */
  remove(ids: ArrayLike<number>): number {
    const roots = new Set<number>();
    let removed = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      this.checkId(id);
      if (this.removed[id]) continue;
      roots.add(this.uf.find(id));
      this.removed[id] = 1;
      removed++;
    }
    if (removed === 0) return 0;
    this.live -= removed;
    this.staleRemovals += removed;
    this.fpMaps = undefined;
    this.grouped = undefined;
    // A removed document may have been the only link between parts of its cluster.
    const members: number[] = [];
    for (let d = 0; d < this.n; d++) if (roots.has(this.uf.find(d))) members.push(d);
    for (const d of members) this.uf.reset(d);
    const liveMembers = Uint32Array.from(members.filter((d) => !this.removed[d]));
    if (liveMembers.length > 1) this.clusterAmong(this.columns(), liveMembers);
    return removed;
  }

  /** Removes every live document with this URL; returns how many. */
  removeUrl(url: string): number {
    return this.remove(this.docIds(url));
  }

  /**
   * Documents resembling `q` (any document, in the index or not), best first: resemblance
   * descending, then containment, then DocId; thresholded as the options say.
   */
  query(q: Sketch, options: QueryOptions = {}): QueryHit[] {
    rejectUnknown(options, ['threshold', 'containment', 'limit', 'commonCap', 'exclude'], 'query');
    assertComparable(q.params, this.params as Sketch['params'], 'the query sketch and the index');
    const threshold = numberOption('threshold', options.threshold, this.options.threshold, 0, 1);
    const containment = options.containment === undefined ? this.options.containment : numberOption('containment', options.containment, 0, 0, 1);
    const limit = intOption('limit', options.limit, 0x7fffffff, 0, 0x7fffffff);
    const cap = intOption('commonCap', options.commonCap, 0x7fffffff, 1, 0x7fffffff);
    const exclude = options.exclude === undefined ? -1 : intOption('exclude', options.exclude, -1, 0, 0x7fffffff);
    this.ensurePostings();
    const cols = this.columns();
    const est = new SetEstimator(cols);
    const row: Row = { w: words(q.values), start: 0, end: q.values.length, cardinality: q.cardinality, modulusLog2: q.modulusLog2 };
    const hits: QueryHit[] = [];
    this.candidates(row, est, cap, exclude, (d) => {
      const r = est.out[0], cqd = est.out[C_AB], cdq = est.out[C_BA];
      if (!(r >= threshold || (containment !== undefined && (cqd >= containment || cdq >= containment)))) return;
      hits.push({ doc: d, url: this.urls[d], date: this.dateOf(d), resemblance: r, containment: cqd, contains: cdq, shared: est.out[SHARED], cluster: this.uf.find(d) });
    });
    hits.sort((x, y) => y.resemblance - x.resemblance || Math.max(y.containment, y.contains) - Math.max(x.containment, x.contains) || x.doc - y.doc);
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }

  /** Documents resembling indexed document `id` (itself excluded). */
  queryDoc(id: number, options: Omit<QueryOptions, 'exclude'> = {}): QueryHit[] {
    return this.query(this.sketch(id), { ...options, exclude: id });
  }

  /** Rebuilds the postings when documents were added or removed since they were built (saving does this first). */
  compact(): void {
    if (!this.base || this.baseEnd < this.n || this.staleRemovals > 0) this.rebuildPostings();
  }

  private ensurePostings(): void {
    // Direct comparison with new documents costs their values per query; past an eighth of the
    // index (or 2^16 values) rebuilding the postings once is cheaper.
    const deltaValues = this.nValues - this.offsets[this.baseEnd];
    if (!this.base || deltaValues > Math.max(1 << 16, this.nValues / 8)) this.rebuildPostings();
  }

  /** Crawl date of a document (ISO 8601), when known. */
  dateOf(id: number): string | undefined {
    const t = this.dates[id];
    return Number.isNaN(t) ? undefined : new Date(t).toISOString();
  }

  /** URL of a document (document id → URL). */
  url(id: number): string | undefined {
    this.checkId(id);
    return this.urls[id];
  }

  /** True when document id was removed. */
  isRemoved(id: number): boolean {
    this.checkId(id);
    return this.removed[id] === 1;
  }

  /** Live documents with this URL, newest DocId first (URL → document ids). */
  docIds(url: string): number[] {
    const out: number[] = [];
    for (let d = this.lastOfUrl.get(url) ?? -1; d >= 0; d = this.prevSameUrl[d]) if (!this.removed[d]) out.push(d);
    return out;
  }

  /** The newest live document with this URL, or -1 (URL → document id). */
  docId(url: string): number {
    return this.docIds(url)[0] ?? -1;
  }

  /** The cluster of a live document: the DocId of its union-find root (document id → cluster); -1 when removed. */
  clusterOf(id: number): number {
    this.checkId(id);
    return this.removed[id] ? -1 : this.uf.find(id);
  }

  /** Live members of a cluster, ascending (cluster → documents). */
  clusterMembers(cluster: number): Uint32Array {
    this.checkId(cluster);
    const g = this.groups();
    const slot = g.slot[this.uf.find(cluster)];
    return slot < 0 ? new Uint32Array(0) : g.members.subarray(g.offsets[slot], g.offsets[slot + 1]);
  }

  /** Clusters of ≥ 2 live documents, each as its ascending members, ordered by smallest member. */
  clusters(): Uint32Array[] {
    const g = this.groups();
    const out: Uint32Array[] = [];
    for (let c = 0; c + 1 < g.offsets.length; c++) if (g.offsets[c + 1] - g.offsets[c] >= 2) out.push(g.members.subarray(g.offsets[c], g.offsets[c + 1]));
    return out;
  }

  private groups(): { offsets: Uint32Array; members: Uint32Array; slot: Int32Array } {
    if (this.grouped) return this.grouped;
    const n = this.n;
    const slot = new Int32Array(n).fill(-1);
    let count = 0;
    const root = new Int32Array(n);
    for (let d = 0; d < n; d++) {
      if (this.removed[d]) continue;
      const r = this.uf.find(d);
      root[d] = r;
      if (slot[r] < 0) slot[r] = count++;
    }
    const offsets = new Uint32Array(count + 1);
    for (let d = 0; d < n; d++) if (!this.removed[d]) offsets[slot[root[d]] + 1]++;
    for (let c = 0; c < count; c++) offsets[c + 1] += offsets[c];
    const cursor = offsets.slice(0, count);
    const members = new Uint32Array(offsets[count]);
    for (let d = 0; d < n; d++) if (!this.removed[d]) members[cursor[slot[root[d]]]++] = d;
    this.grouped = { offsets, members, slot };
    return this.grouped;
  }

  /** Live documents in the cluster of the newest document with this URL. */
  clusterOfUrl(url: string): Uint32Array {
    const d = this.docId(url);
    return d < 0 ? new Uint32Array(0) : this.clusterMembers(d);
  }

  /**
   * Lost and found: the URL of the newest document (by crawl date, unknown dates oldest, then
   * highest DocId) in the cluster of any live document with this URL; undefined when unknown.
   */
  newestUrl(url: string): string | undefined {
    let best = -1;
    for (const d of this.docIds(url)) {
      for (const m of this.clusterMembers(d)) {
        if (this.urls[m] === undefined) continue;
        if (best < 0 || newer(this.dates[m], m, this.dates[best], best)) best = m;
      }
    }
    return best < 0 ? undefined : this.urls[best];
  }

  /** The stored columns (views), for `saveIndex`. */
  state(): IndexState {
    const c = this.columns();
    return {
      params: this.params, options: this.options, size: this.n, values: c.values, offsets: c.offsets, cardinality: c.cardinality,
      tokens: this.tokens.subarray(0, this.n), modulusLog2: c.modulusLog2!, rawFp: c.rawFp!, lexicalFp: c.lexicalFp!, shingleFp: c.shingleFp!,
      dates: this.dates.subarray(0, this.n), removed: this.removed.subarray(0, this.n), roots: this.uf.roots(), urls: this.urls.slice(0, this.n),
      postings: this.base, baseEnd: this.baseEnd, staleRemovals: this.staleRemovals,
    };
  }

  /** An index from stored columns (see `loadIndex`); the arrays are adopted, not copied. */
  static fromState(s: IndexState): ResembleIndex {
    const index = new ResembleIndex(s.params, { ...s.options });
    const n = s.size;
    index.n = n;
    index.nValues = s.values.length;
    index.values = s.values; index.offsets = s.offsets; index.cardinality = s.cardinality; index.tokens = s.tokens;
    index.modulusLog2 = s.modulusLog2; index.rawFp = s.rawFp; index.lexicalFp = s.lexicalFp; index.shingleFp = s.shingleFp;
    index.dates = s.dates; index.removed = s.removed; index.urls = s.urls;
    index.prevSameUrl = new Int32Array(Math.max(1, n)).fill(-1);
    for (let d = 0; d < n; d++) {
      const url = s.urls[d];
      if (url === undefined) continue;
      const prev = index.lastOfUrl.get(url);
      if (prev !== undefined) index.prevSameUrl[d] = prev;
      index.lastOfUrl.set(url, d);
    }
    index.uf = UnionFind.fromRoots(s.roots);
    index.live = 0;
    for (let d = 0; d < n; d++) if (!s.removed[d]) index.live++;
    index.base = s.postings;
    index.baseEnd = s.postings ? s.baseEnd : 0;
    index.staleRemovals = s.staleRemovals;
    // Typed arrays adopted from a file are exactly full; growth on the next add copies them.
    return index;
  }
}

function newer(ta: number, a: number, tb: number, b: number): boolean {
  const x = Number.isNaN(ta) ? -Infinity : ta, y = Number.isNaN(tb) ? -Infinity : tb;
  return x > y || (x === y && a > b);
}
