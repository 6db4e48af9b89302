// An index for on-the-fly queries and incremental clustering (paper, "On the fly resemblance"
// and "Lost and found"): the sketches of every document, shingle → documents postings, the
// URL ↔ DocId ↔ cluster maps, crawl dates, and a union-find holding the clusters. New sweeps are
// merged into the existing clusters: documents equivalent to an indexed one short-cut through the
// whole-document fingerprints; the others are compared with each other and looked up in the
// postings, so nothing already clustered is clustered again.
//
// The postings are two tiers (the LSM idea): sorted, partitioned lists for the documents up to
// `mainEnd`, and a hash table (DeltaPostings) for the documents added since. A lookup probes
// both; a new document goes into the hash table; once the table holds MERGE_FRACTION of the
// sorted lists' entries it is merged into them in one linear pass (dropping removed documents).
// The sorted tier thus grows by a constant factor between merges, so each entry is copied a
// constant number of times overall: keeping the postings up costs the same per document at any
// size (amortized), where rebuilding them per sweep cost O(n) each. What a lookup then costs is
// the lists it walks: prefix filtering (see `candidates`) leaves out the longest ones.
import { ResembleError, enumOption, intOption, numberOption, optionError, rejectUnknown } from '../errors.js';
import { resolveSketchOptions, type SketchOptions, type SketchParams } from '../sketch/options.js';
import { assertComparable } from '../sketch/sketch.js';
import { checkSketch, isSketch, SketchSet, thinRow, type Sketch } from '../sketch/sketch-set.js';
import { checkColumns, HI as HI_WORD, LO as LO_WORD, words, type ClusterParams, type ClusterColumns } from './columns.js';
import { DeltaPostings } from './delta-postings.js';
import { KIND_IDENTICAL, KIND_LEXICAL, KIND_SHINGLE, setAside, type EquivalenceLevel } from './equivalence.js';
import { C_AB, C_BA, SHARED, SetEstimator, type Row } from './estimate.js';
import { candidatePairs, nonEmpty } from './near-duplicates.js';
import type { PairTable } from './pairs.js';
import { buildPostings, findList, type PostingLists } from './postings.js';
import { WordTable } from '../word-table.js';
import { UnionFind } from './union-find.js';
import { NEAR_DUPLICATE_DEFAULTS } from './defaults.js';

/** The hash tier is merged into the sorted one when its entries pass this fraction of the sorted ones… */
const MERGE_FRACTION = 0.5;
/** …and this many (below it, merging would cost more than it saves). */
const MIN_DELTA_ENTRIES = 1 << 16;

// Word positions as module constants: imported bindings are slower to read in hot loops.
const HI = HI_WORD, LO = LO_WORD;

/**
 * What a sweep asks of the candidate step: the pairs among `docs` (ascending) of `columns` sharing
 * a sketch value held by at most `cap` of them, with estimates, those whose resemblance and
 * containments all fall below `floor` left out (as `candidatePairs(columns, columns, docs, cap, floor)`).
 */
export interface PairRequest {
  columns: ClusterColumns;
  docs: Uint32Array;
  cap: number;
  floor: number;
}

/** Finds the candidate pairs of a PairRequest (see `ResembleIndex.addWith`). */
export type PairFinder = (request: PairRequest) => Promise<PairTable>;

function pairsAmong(r: PairRequest): PairTable {
  return candidatePairs(r.columns, r.columns, r.docs, r.cap, r.floor).pairs;
}

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
  /** The document's key: the key given to `insert`, or the URL given to `add`. */
  key?: string;
  /** The same as `key` (the name `add` and the CLI use). */
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
  /** Pairs over the policy found among the new documents, and joins of new documents to indexed clusters. */
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
    commonCap: intOption('commonCap', o.commonCap, NEAR_DUPLICATE_DEFAULTS.commonCap, 1, 0x7fffffff),
    equivalence: enumOption('equivalence', o.equivalence, NEAR_DUPLICATE_DEFAULTS.equivalence, ['none', 'identical', 'lexical', 'shingle'] as const),
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
  /** Sorted postings of the documents below `baseEnd` (the live ones when they were merged). */
  postings?: PostingLists;
  baseEnd: number;
  /** Documents removed since the postings were built (they are skipped in queries until rebuilt). */
  staleRemovals: number;
  /** content 'main': the template table of each site, as its pages were sketched. */
  templates?: SiteTables;
}

/** content 'main': each site's template table (undefined: the site was settled without one), so later pages and queries are sketched the same way. */
export type SiteTables = Map<string, BigUint64Array | undefined>;

/** Options of an index in one object: how sketches are made (`SketchOptions`) and the clustering policy (`IndexOptions`). */
export type ResembleIndexOptions = SketchOptions & IndexOptions;

const isIndexKey = (k: string) => (KNOWN_INDEX as readonly string[]).includes(k);

/** A sketch or a one-row set as columns; anything else is checked as columns by the caller. */
function asColumns(input: ClusterColumns | Sketch, where: string): ClusterColumns & { tokens?: Uint32Array } {
  if (isSketch(input)) { checkSketch(input, where); return SketchSet.from([input]); }
  if (typeof input !== 'object' || input === null) throw new ResembleError('E_INPUT', `${where}: expected a Sketch or a SketchSet, got ${input === null ? 'null' : typeof input}`);
  return input;
}

/** A one-row set as a sketch; a sketch as it is (checked). */
function asSketch(input: Sketch | ClusterColumns, where: string): Sketch {
  if (!isSketch(input) && typeof input === 'object' && input !== null && 'offsets' in input) {
    const set = input as ClusterColumns & { tokens?: Uint32Array };
    if (set.size !== 1) throw new ResembleError('E_INPUT', `${where}: expected one sketch, got a set of ${set.size}`);
    checkColumns(set, where);
    return {
      params: set.params, values: set.values.subarray(set.offsets[0], set.offsets[1]), cardinality: set.cardinality[0],
      modulusLog2: set.modulusLog2?.[0] ?? 0, tokens: set.tokens?.[0] ?? 0,
    };
  }
  checkSketch(input, where);
  return input;
}

/** What a candidate scan looks at (see `ResembleIndex.candidates`). */
interface CandidateScan {
  cap: number;
  exclude: number;
  below: number;
  threshold: number;
  containment: number | undefined;
  /** Documents not worth estimating (already joined). */
  skip?: (doc: number) => boolean;
  /** Visit by resemblance bound, highest first (top-k). */
  byBound?: boolean;
}

/** Parses a crawl date: ms since 1970 as given, ISO 8601 via Date.parse; NaN when unknown. */
export function parseDate(d: string | number | undefined): number {
  if (d === undefined || d === '') return NaN;
  return typeof d === 'number' ? d : Date.parse(d);
}

/**
 * Documents' sketches with postings, URL (key) and cluster maps. Build with
 * `ResembleIndex.build(set)`, or `new ResembleIndex(options)` then `add` sweeps or `insert` keyed
 * sketches one at a time; every sketch must have the index's parameters (E_PARAMS otherwise).
 */
export class ResembleIndex {
  /** The sketch parameters every document and query must have. */
  readonly params: ClusterParams;
  readonly options: ResolvedIndexOptions;
  /** content 'main': the template table of every site whose pages were indexed (saved with the index; filled by the pipeline). */
  readonly templates: SiteTables = new Map();
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
  /** Sorted postings of documents [0, mainEnd); the hash tier holds [mainEnd, deltaEnd); later ones are not in the postings yet. */
  private main?: PostingLists;
  private mainEnd = 0;
  private delta = new DeltaPostings();
  private deltaEnd = 0;
  private fpMaps?: { maps: [WordTable, WordTable, WordTable]; end: number };
  private grouped?: { offsets: Uint32Array; members: Uint32Array; slot: Int32Array };
  private counter: Uint32Array = new Uint32Array(0);
  private touched: Uint32Array = new Uint32Array(0);
  private live = 0;
  private staleRemovals = 0;

  /**
   * An empty index. `new ResembleIndex()` takes the default sketch parameters and policy;
   * `new ResembleIndex({ w: 8, s: 128, threshold: 0.8 })` sets both in one object; the
   * parameters of a set (`set.params`, or `resolveSketchOptions(…)`) are accepted as they are,
   * with the policy beside them. Everything is validated here (E_OPTION), not at the first add.
   */
  constructor(options: ResembleIndexOptions | SketchParams = {}, indexOptions?: IndexOptions) {
    if (options === null || typeof options !== 'object') throw optionError('ResembleIndex options', 'an object', options);
    const sketchPart: Record<string, unknown> = {}, indexPart: Record<string, unknown> = { ...indexOptions };
    for (const [k, v] of Object.entries(options)) {
      if (!isIndexKey(k)) sketchPart[k] = v;
      else if (indexOptions && k in indexOptions) throw optionError(k, 'one value (given both in the sketch options and in the index options)', v);
      else indexPart[k] = v;
    }
    this.params = resolveSketchOptions(sketchPart as SketchOptions);
    this.options = resolveIndexOptions(indexPart as IndexOptions);
  }

  /** An index holding the documents of `set` (URLs and dates in `meta`). */
  static build(set: ClusterColumns | Sketch, meta?: DocumentMeta, options?: IndexOptions): ResembleIndex {
    const cols = asColumns(set, 'ResembleIndex.build');
    if (!cols.params || typeof cols.params !== 'object') throw new ResembleError('E_INPUT', 'ResembleIndex.build: expected a SketchSet with its params');
    const index = new ResembleIndex(cols.params, options);
    index.add(cols, meta);
    return index;
  }

  /** DocIds given so far (removed documents keep theirs). */
  get size(): number { return this.n; }
  /** Documents not removed. */
  get liveCount(): number { return this.live; }

  /** The columns of documents 0..size-1 (views; valid until the next add). */
  columns(): ClusterColumns {
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
      params: this.params, values: this.values.subarray(this.offsets[id], this.offsets[id + 1]),
      cardinality: this.cardinality[id], modulusLog2: this.modulusLog2[id], tokens: this.tokens[id],
      rawFp: this.rawFp[id], lexicalFp: this.lexicalFp[id], shingleFp: this.shingleFp[id],
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

  /** Adds a sweep of documents (a SketchSet, or one Sketch) and merges them into the clusters; returns their DocIds and what joined. */
  add(input: (ClusterColumns & { tokens?: Uint32Array }) | Sketch, meta: DocumentMeta = {}): AddResult {
    const steps = this.adding(input, meta, 'ResembleIndex.add');
    let r = steps.next();
    while (!r.done) r = steps.next(pairsAmong(r.value));
    return r.value;
  }

  /**
   * `add` with the candidate pairs among the new documents found by `find` (the DuckDB engine's,
   * for sweeps whose pairs do not fit in memory): the same result when `find` returns what
   * `candidatePairs` would. If `find` fails the index is left half-updated: do not use it.
   */
  async addWith(input: (ClusterColumns & { tokens?: Uint32Array }) | Sketch, meta: DocumentMeta, find: PairFinder): Promise<AddResult> {
    if (typeof find !== 'function') throw optionError('find', 'a function', find);
    const steps = this.adding(input, meta, 'ResembleIndex.addWith');
    let r = steps.next();
    while (!r.done) r = steps.next(await find(r.value));
    return r.value;
  }

  /** The steps of add, yielding each request for candidate pairs. */
  private *adding(input: (ClusterColumns & { tokens?: Uint32Array }) | Sketch, meta: DocumentMeta, where: string): Generator<PairRequest, AddResult, PairTable> {
    const set = asColumns(input, where);
    checkColumns(set, 'ResembleIndex.add');
    assertComparable(set.params, this.params, 'sketches added to an index');
    rejectUnknown(meta, ['urls', 'dates'], 'ResembleIndex.add meta');
    const k = set.size;
    if (meta.urls && meta.urls.length !== k) throw optionError('urls', `${k} URLs (one per document)`, `${meta.urls.length}`);
    if (meta.dates && meta.dates.length !== k) throw optionError('dates', `${k} dates (one per document)`, `${meta.dates.length}`);
    const n0 = this.n;
    // Cross-sweep lookups go to the postings, so they must cover every indexed document.
    this.indexUpTo(n0);
    const maps = this.maps();

    this.reserve(n0 + k, this.nValues + set.values.length);
    this.values.set(set.values, this.nValues);
    for (let i = 0; i < k; i++) this.offsets[n0 + i + 1] = this.nValues + set.offsets[i + 1];
    this.nValues += set.values.length;
    this.cardinality.set(set.cardinality, n0);
    if (set.tokens) this.tokens.set(set.tokens, n0); else this.tokens.fill(0, n0, n0 + k);
    if (set.modulusLog2) this.modulusLog2.set(set.modulusLog2, n0); else this.modulusLog2.fill(0, n0, n0 + k);
    // Documents without whole-document fingerprints get 0n, which means unknown: they never short-cut.
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
        // A removed document left in the map (no live equivalent was left) is a miss.
        if (old >= 0 && old < n0 && !this.removed[old]) { hit = old; code = [KIND_IDENTICAL, KIND_LEXICAL, KIND_SHINGLE][l]; }
      }
      if (hit >= 0) { this.uf.union(d, hit); counts[code]++; } else rest.push(d);
    }
    for (let d = n0; d < this.n; d++) {
      for (let l = 0; l < 3; l++) {
        if (!this.eligible(d, l)) continue;
        const hi = fps[l][2 * d + HI], lo = fps[l][2 * d + LO];
        const old = maps.maps[l].setIfAbsent(hi, lo, d);
        if (old !== d && this.removed[old]) maps.maps[l].set(hi, lo, d);
      }
    }
    maps.end = this.n;

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
        this.candidates(row, est, scan, (old) => {
          if (this.accepts(est.out[0], est.out[C_AB], est.out[C_BA]) && this.uf.union(d, old)) cross++;
        });
      }
    }
    return { first: n0, count: k, identical: counts[1], lexical: counts[2], shingle: counts[3], joins: joins.joins + cross };
  }

  /** Whether document d may short-cut at this level: fingerprints known (0n is unknown), and not empty where that matters. */
  private eligible(d: number, level: number): boolean {
    if (this.rawFp[d] === 0n) return false;
    // a content page with too little content (no row) by its own fingerprints: its whole text's
    // (lexical) and its title and content's (shingle), when not 0
    const thin = thinRow(this.offsets, this.cardinality, d);
    if (level === 1) return this.cardinality[d] > 0 || (thin && this.lexicalFp[d] !== 0n);
    if (level === 2) return this.offsets[d + 1] > this.offsets[d] || (thin && this.shingleFp[d] !== 0n);
    return true;
  }

  private accepts(r: number, cab: number, cba: number): boolean {
    const c = this.options.containment;
    return r >= this.options.threshold || (c !== undefined && (cab >= c || cba >= c));
  }

  /**
   * Clusters `docs` (ascending) among themselves into the union-find: equivalence, then pairs.
   * Works on a copy of just their rows, so the cost follows the sweep, not the index.
   */
  private clusterAmong(docs: Uint32Array): { joins: number; kept: Uint32Array } {
    const steps = this.clusteringAmong(docs);
    let r = steps.next();
    while (!r.done) r = steps.next(pairsAmong(r.value));
    return r.value;
  }

  private *clusteringAmong(docs: Uint32Array): Generator<PairRequest, { joins: number; kept: Uint32Array }, PairTable> {
    const k = docs.length;
    if (k < 2) return { joins: 0, kept: docs.filter((d) => this.offsets[d + 1] > this.offsets[d]) };
    const local = this.gather(docs);
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
      const pairs = yield { columns: local, docs: kept, cap: this.options.commonCap, floor };
      for (let i = 0; i < pairs.count; i++) {
        if (this.accepts(pairs.resemblance[i], pairs.containmentAB[i], pairs.containmentBA[i])) { this.uf.union(docs[pairs.a[i]], docs[pairs.b[i]]); joins++; }
      }
    }
    return { joins, kept: kept.map((i) => docs[i]) };
  }

  /** The rows of `docs` copied into columns of their own (local index i is docs[i]). */
  private gather(docs: Uint32Array): ClusterColumns & { rawFp: BigUint64Array } {
    const k = docs.length;
    const offsets = new Uint32Array(k + 1);
    for (let i = 0; i < k; i++) offsets[i + 1] = offsets[i] + this.offsets[docs[i] + 1] - this.offsets[docs[i]];
    const values = new BigUint64Array(offsets[k]);
    const cardinality = new Float64Array(k), modulusLog2 = new Uint8Array(k);
    const rawFp = new BigUint64Array(k), lexicalFp = new BigUint64Array(k), shingleFp = new BigUint64Array(k);
    for (let i = 0; i < k; i++) {
      const d = docs[i];
      values.set(this.values.subarray(this.offsets[d], this.offsets[d + 1]), offsets[i]);
      cardinality[i] = this.cardinality[d]; modulusLog2[i] = this.modulusLog2[d];
      rawFp[i] = this.rawFp[d]; lexicalFp[i] = this.lexicalFp[d]; shingleFp[i] = this.shingleFp[d];
    }
    return { size: k, params: this.params, values, offsets, cardinality, modulusLog2, rawFp, lexicalFp, shingleFp };
  }

  /**
   * Calls `found(doc)` for every live document sharing a value with `row` (values held by more
   * than `cap` documents, as the postings count them, skipped) among those below `below`, after
   * estimating it into `est.out`; the postings must cover [0, below). Without a containment
   * policy (and for MIN_s and MOD sketches) two exact filters leave out documents that could
   * never reach `threshold`, before their lists are walked or their sketches compared:
   *  - an estimate r = x / n ≥ t needs x ≥ t·|Q| shared values (n ≥ |Q| for both kinds), so a
   *    document reaching t shares at least k of the query's values and is in one of any
   *    |Q| − k + 1 of its lists: only the shortest ones are walked (prefix filtering, as in
   *    all-pairs similarity joins); boilerplate values, whose lists grow with the crawl, are not;
   *  - then r ≤ shared / max(|Q|, |D|) for MIN_s (the union's s smallest hold the longer sketch)
   *    and ≤ x / (|Q| + |D| − x) for MOD, with shared bounded by the lists walked plus those not.
   * With `byBound`, documents are visited by that bound, highest first, and `found` may return a
   * floor: the scan stops at the first bound below it (top-k queries stop early, exactly).
   */
  private candidates(row: Row, est: SetEstimator, o: CandidateScan, found: (doc: number) => number | void): void {
    const { cap, exclude, below, threshold, containment } = o;
    const main = this.main, delta = this.delta;
    const n = this.n;
    if (this.counter.length < n) { this.counter = new Uint32Array(Math.max(n, this.counter.length * 2)); this.touched = new Uint32Array(this.counter.length); }
    const counter = this.counter, removed = this.removed, touched = this.touched;
    let t = 0;
    const mDocs = main?.docs, mStart = main?.listStart;
    const dDoc = delta.doc, dNext = delta.next, dHead = delta.head, dCount = delta.count;
    const probeDelta = delta.entries > 0;
    const lenQ = row.end - row.start;
    // Each value's list: main range [ls, le), delta slot, total length; ordered shortest first.
    const ls = new Uint32Array(lenQ), le = new Uint32Array(lenQ), slots = new Int32Array(lenQ), order = new Float64Array(lenQ);
    let nonEmptyLists = 0;
    for (let i = 0; i < lenQ; i++) {
      const j = row.start + i;
      const hi = row.w[2 * j + HI], lo = row.w[2 * j + LO];
      if (main) {
        const l = findList(main, hi, lo);
        if (l >= 0) { ls[i] = mStart![l]; le[i] = mStart![l + 1]; }
      }
      const slot = probeDelta ? delta.find(hi, lo) : -1;
      slots[i] = slot;
      const len = le[i] - ls[i] + (slot >= 0 ? dCount[slot] : 0);
      if (len > 0) nonEmptyLists++;
      order[i] = len * 2097152 + i; // lists of one query row number fewer than 2^21
    }
    order.sort();
    const kind = this.params.kind;
    const prune = containment === undefined && threshold > 0 && kind !== 'adaptive' && lenQ > 0;
    // k: the fewest shared values whose ratio to |Q| reaches the threshold (as floating point divides).
    let k = 0;
    if (prune) {
      k = Math.max(1, Math.ceil(threshold * lenQ));
      while (k > 1 && (k - 1) / lenQ >= threshold) k--;
      while (k <= lenQ && k / lenQ < threshold) k++;
    }
    const walk = prune ? Math.max(0, lenQ - k + 1) : lenQ;
    let walked = 0;
    for (let r = 0; r < walk && r < lenQ; r++) {
      const i = order[r] % 2097152;
      const len = Math.floor(order[r] / 2097152);
      if (len === 0) continue;
      if (len > cap) break; // the rest are as long or longer
      walked++;
      for (let q = ls[i], e = le[i]; q < e; q++) {
        const d = mDocs![q];
        if (d >= below || removed[d] || d === exclude) continue;
        if (counter[d]++ === 0) touched[t++] = d;
      }
      if (slots[i] >= 0) {
        for (let x = dHead[slots[i]]; x >= 0; x = dNext[x]) {
          const d = dDoc[x];
          if (d >= below || removed[d] || d === exclude) continue;
          if (counter[d]++ === 0) touched[t++] = d;
        }
      }
    }
    const list = touched.subarray(0, t).sort();
    const offsets = this.offsets;
    const unwalked = nonEmptyLists - walked;
    const bound = new Float64Array(prune && o.byBound ? t : 0);
    let kept = 0;
    for (let i = 0; i < t; i++) {
      const d = list[i];
      const shared = counter[d] + unwalked;
      counter[d] = 0;
      if (o.skip?.(d)) continue;
      let ub = 1;
      if (prune) {
        const lenD = offsets[d + 1] - offsets[d];
        if (kind === 'min') ub = shared / Math.max(lenQ, lenD);
        else { const x = Math.min(shared, lenQ, lenD); ub = x / Math.max(1, lenQ + lenD - x); }
        if (ub < threshold) continue;
      }
      if (bound.length) { list[kept] = d; bound[kept++] = ub; continue; }
      est.against(row, d);
      found(d);
    }
    if (!bound.length || kept === 0) return;
    // Highest bound first, DocId ascending among equal bounds (the order hits rank in).
    const idx = Uint32Array.from({ length: kept }, (_, i) => i).sort((a, b) => bound[b] - bound[a] || list[a] - list[b]);
    let floor = -1;
    for (const i of idx) {
      if (bound[i] < floor) break;
      est.against(row, list[i]);
      const f = found(list[i]);
      if (typeof f === 'number') floor = f;
    }
  }

  /**
   * Brings documents below `upTo` into the postings: into the hash tier, or, once that would
   * pass MERGE_FRACTION of the sorted tier, everything into the sorted tier in one merge.
   */
  private indexUpTo(upTo: number): void {
    if (this.deltaEnd >= upTo) return;
    const sorted = this.main ? this.main.docs.length : 0;
    const entries = this.delta.entries + this.offsets[upTo] - this.offsets[this.deltaEnd];
    if (entries > Math.max(MIN_DELTA_ENTRIES, sorted * MERGE_FRACTION)) { this.merge(upTo); return; }
    const w = words(this.values);
    for (let d = this.deltaEnd; d < upTo; d++) if (!this.removed[d]) this.delta.add(d, w, this.offsets[d], this.offsets[d + 1]);
    this.deltaEnd = upTo;
  }

  /** Merges the hash tier and documents up to `upTo` into the sorted tier, leaving removed documents out. */
  private merge(upTo: number): void {
    let k = 0;
    for (let d = this.mainEnd; d < upTo; d++) if (!this.removed[d]) k++;
    const docs = new Uint32Array(k);
    k = 0;
    for (let d = this.mainEnd; d < upTo; d++) if (!this.removed[d]) docs[k++] = d;
    this.main = buildPostings(this.values, this.offsets, {
      cap: 0x7fffffff, keepSingletons: true, keepKeys: true, docs, base: this.main, dropBase: this.staleRemovals > 0 ? this.removed : undefined,
    });
    this.mainEnd = this.deltaEnd = upTo;
    this.delta.clear();
    this.staleRemovals = 0;
  }

  /** Rebuilds the postings over every live document (one sorted tier). */
  rebuildPostings(): void {
    this.main = undefined;
    this.mainEnd = this.deltaEnd = 0;
    this.delta.clear();
    this.merge(this.n);
  }

  private maps(): { maps: [WordTable, WordTable, WordTable]; end: number } {
    if (this.fpMaps && this.fpMaps.end === this.n) return this.fpMaps;
    const maps: [WordTable, WordTable, WordTable] = [new WordTable(this.live, -1, 2), new WordTable(this.live, -1, 2), new WordTable(this.live, -1, 2)];
    const cols = this.columns();
    const fps = [cols.rawFp!, cols.lexicalFp!, cols.shingleFp!].map(words);
    for (let d = 0; d < this.n; d++) {
      if (this.removed[d]) continue;
      for (let l = 0; l < 3; l++) if (this.eligible(d, l)) maps[l].setIfAbsent(fps[l][2 * d + HI], fps[l][2 * d + LO], d);
    }
    this.fpMaps = { maps, end: this.n };
    return this.fpMaps;
  }

  /**
   * Inserts one document under a key (datasketch's `insert(key, minhash)`): a `Sketch` from
   * `sketch()`/`sketchItems()` or a one-row set. A key already live in the index is rejected
   * (E_KEY); `date` is the crawl date. Returns the document's DocId.
   */
  insert(key: string, sketch: Sketch | ClusterColumns, meta: { date?: string | number } = {}): number {
    checkKey(key, 'insert');
    rejectUnknown(meta, ['date'], 'ResembleIndex.insert meta');
    if (this.has(key)) throw new ResembleError('E_KEY', `insert: key ${JSON.stringify(key)} is already in the index (remove it first)`, { key });
    const set = asColumns(sketch, `insert ${JSON.stringify(key)}`);
    if (set.size !== 1) throw new ResembleError('E_INPUT', `insert ${JSON.stringify(key)}: expected one sketch, got a set of ${set.size}`, { key });
    return this.add(set, { urls: [key], dates: [meta.date] }).first;
  }

  /** True when a live document has this key (or URL). */
  has(key: string): boolean {
    checkKey(key, 'has');
    return this.docId(key) >= 0;
  }

  /**
   * Removes documents, by key (every live document with it; E_KEY when there is none, as
   * datasketch) or by DocIds; their clusters are re-formed from the remaining members.
   * Returns how many live documents were removed.
   */
  remove(keyOrIds: string | ArrayLike<number>): number {
    if (typeof keyOrIds === 'string') {
      const ids = this.docIds(keyOrIds);
      if (ids.length === 0) throw new ResembleError('E_KEY', `remove: key ${JSON.stringify(keyOrIds)} is not in the index`, { key: keyOrIds });
      return this.remove(ids);
    }
    const ids = keyOrIds;
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
    this.grouped = undefined;
    // A removed document may have been the only link between parts of its cluster.
    const members: number[] = [];
    for (let d = 0; d < this.n; d++) if (roots.has(this.uf.find(d))) members.push(d);
    this.repointMaps(ids, members);
    for (const d of members) this.uf.reset(d);
    const liveMembers = Uint32Array.from(members.filter((d) => !this.removed[d]));
    if (liveMembers.length > 1) this.clusterAmong(liveMembers);
    return removed;
  }

  /**
   * Points fingerprint-map entries held by removed documents at a live equivalent, which is
   * always in the same (old) cluster; with none left the entry stays and reads as a miss.
   */
  private repointMaps(ids: ArrayLike<number>, members: number[]): void {
    const maps = this.fpMaps;
    if (!maps) return;
    const cols = [this.rawFp, this.lexicalFp, this.shingleFp];
    for (let i = 0; i < ids.length; i++) {
      const r = ids[i];
      if (r >= maps.end) continue;
      for (let l = 0; l < 3; l++) {
        if (!this.eligible(r, l)) continue;
        const fp = cols[l][r];
        const w = words(cols[l].subarray(r, r + 1));
        if (maps.maps[l].get(w[HI], w[LO]) !== r) continue;
        const heir = members.find((m) => m < maps.end && !this.removed[m] && cols[l][m] === fp && this.eligible(m, l));
        if (heir !== undefined) maps.maps[l].set(w[HI], w[LO], heir);
      }
    }
  }

  /** Removes every live document with this URL; returns how many (0 when none). */
  removeUrl(url: string): number {
    return this.remove(this.docIds(url));
  }

  /**
   * Documents resembling `q` (any document, in the index or not), best first: resemblance
   * descending, then containment, then DocId; thresholded as the options say.
   */
  query(input: Sketch | ClusterColumns, options: QueryOptions = {}): QueryHit[] {
    const q = asSketch(input, 'ResembleIndex.query');
    rejectUnknown(options, ['threshold', 'containment', 'limit', 'commonCap', 'exclude'], 'query');
    assertComparable(q.params, this.params, 'the query sketch and the index');
    const threshold = numberOption('threshold', options.threshold, this.options.threshold, 0, 1);
    const containment = options.containment === undefined ? this.options.containment : numberOption('containment', options.containment, 0, 0, 1);
    const limit = intOption('limit', options.limit, 0x7fffffff, 0, 0x7fffffff);
    const cap = intOption('commonCap', options.commonCap, 0x7fffffff, 1, 0x7fffffff);
    const exclude = options.exclude === undefined ? -1 : intOption('exclude', options.exclude, -1, 0, 0x7fffffff);
    this.indexUpTo(this.n);
    const cols = this.columns();
    const est = new SetEstimator(cols);
    const row: Row = { w: words(q.values), start: 0, end: q.values.length, cardinality: q.cardinality, modulusLog2: q.modulusLog2 };
    const hits: QueryHit[] = [];
    if (limit === 0) return hits;
    const rank = (x: QueryHit, y: QueryHit) => y.resemblance - x.resemblance || Math.max(y.containment, y.contains) - Math.max(x.containment, x.contains) || x.doc - y.doc;
    // A few best hits: keep them ranked as they come, and let the scan stop below the last one.
    const topK = limit <= 64;
    this.candidates(row, est, { cap, exclude, below: this.n, threshold, containment, byBound: topK }, (d) => {
      const r = est.out[0], cqd = est.out[C_AB], cdq = est.out[C_BA];
      if (!(r >= threshold || (containment !== undefined && (cqd >= containment || cdq >= containment)))) return;
      const hit: QueryHit = { doc: d, key: this.urls[d], url: this.urls[d], date: this.dateOf(d), resemblance: r, containment: cqd, contains: cdq, shared: est.out[SHARED], cluster: this.uf.find(d) };
      if (!topK) { hits.push(hit); return; }
      let at = hits.length;
      while (at > 0 && rank(hit, hits[at - 1]) < 0) at--;
      if (at >= limit) return hits[limit - 1].resemblance;
      hits.splice(at, 0, hit);
      if (hits.length > limit) hits.pop();
      return hits.length === limit ? hits[limit - 1].resemblance : undefined;
    });
    if (!topK) hits.sort(rank);
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }

  /** Documents resembling indexed document `id` (itself excluded). */
  queryDoc(id: number, options: Omit<QueryOptions, 'exclude'> = {}): QueryHit[] {
    return this.query(this.sketch(id), { ...options, exclude: id });
  }

  /** Merges every document into the sorted postings, leaving removed ones out (saving does this first). */
  compact(): void {
    if (!this.main || this.mainEnd < this.n || this.staleRemovals > 0) this.merge(this.n);
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
      postings: this.main, baseEnd: this.mainEnd, staleRemovals: this.staleRemovals, templates: this.templates,
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
    index.main = s.postings;
    index.mainEnd = index.deltaEnd = s.postings ? s.baseEnd : 0;
    index.staleRemovals = s.staleRemovals;
    for (const [site, t] of s.templates ?? []) index.templates.set(site, t);
    // Typed arrays adopted from a file are exactly full; growth on the next add copies them.
    return index;
  }
}

function checkKey(key: unknown, where: string): asserts key is string {
  if (typeof key !== 'string') throw new ResembleError('E_KEY', `${where}: expected a string key, got ${key === null ? 'null' : typeof key}`, { key });
}

function newer(ta: number, a: number, tb: number, b: number): boolean {
  const x = Number.isNaN(ta) ? -Infinity : ta, y = Number.isNaN(tb) ? -Infinity : tb;
  return x > y || (x === y && a > b);
}
