// `ResembleIndex`: an index for on-the-fly queries and incremental clustering (paper, "On the fly
// resemblance" and "Lost and found"), in the shape datasketch's users know: insert, query,
// remove, has, save and load. It holds the documents (store.ts), their shingle postings
// (postings.ts) and their clusters (clusters.ts); queries are in query.ts, the file in format.ts.
import { ResembleError, optionError, rejectUnknown } from '../../errors.js';
import { resolveSketchOptions, type SketchOptions, type SketchParams } from '../../sketch/options.js';
import type { Sketch } from '../../sketch/sketch-set.js';
import type { ClusterColumns, ClusterParams } from '../../sketch/columns.js';
import type { PairTable } from '../pairs.js';
import { IndexClusters, inMemory } from './clusters.js';
import { decodeIndex, encodeIndex, type IndexState, type LoadIndexOptions, type SiteTables } from './format.js';
import { checkKey, INDEX_OPTION_NAMES, resolveIndexOptions, type AddResult, type DocumentMeta, type IndexOptions, type PairRequest, type QueryHit, type QueryOptions, type ResolvedIndexOptions } from './options.js';
import { IndexPostings } from './postings.js';
import { rankedHits } from './query.js';
import { asColumns, asSketch, IndexStore, type SweepColumns } from './store.js';

/** Options of an index in one object: how sketches are made (`SketchOptions`) and the clustering policy (`IndexOptions`). */
export type ResembleIndexOptions = SketchOptions & IndexOptions;

const isIndexKey = (k: string) => (INDEX_OPTION_NAMES as readonly string[]).includes(k);

/**
 * Documents' sketches with postings, keys (URLs), crawl dates and clusters. `new
 * ResembleIndex(options)`, then `insert` keyed sketches one at a time or `insertMany` a sweep;
 * every sketch must have the index's parameters (E_PARAMS otherwise).
 */
export class ResembleIndex {
  /** The sketch parameters every document and query must have. */
  readonly params: ClusterParams;
  /** The clustering policy, and the default thresholds of queries. */
  readonly options: ResolvedIndexOptions;
  /** content 'main': the template table of every site whose pages were indexed (saved with the index; filled by `buildIndex`). */
  readonly templates: SiteTables = new Map();
  private store: IndexStore;
  private postings: IndexPostings;
  private groups: IndexClusters;

  /**
   * An empty index. `new ResembleIndex()` takes the default sketch parameters and policy;
   * `new ResembleIndex({ w: 8, s: 128, threshold: 0.8 })` sets both in one object; the
   * parameters of a set (`set.params`, or `resolveSketchOptions(…)`) are accepted as they are,
   * with the policy beside them. Everything is validated here (E_OPTION), not at the first insert.
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
    this.store = new IndexStore(this.params);
    this.postings = new IndexPostings(this.store);
    this.groups = new IndexClusters(this.store, this.postings, this.options);
  }

  /** DocIds given so far (removed documents keep theirs). */
  get size(): number { return this.store.n; }
  /** Documents not removed. */
  get liveCount(): number { return this.store.live; }

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
    return this.insertMany(set, { keys: [key], dates: [meta.date] }).first;
  }

  /**
   * Inserts a sweep of documents (a SketchSet, or one Sketch) with their keys and dates, and merges
   * them into the clusters: copies of indexed documents short-cut, the others are compared with
   * each other and looked up in the postings. Keys may repeat (a page crawled again). Returns their
   * DocIds and what joined.
   */
  insertMany(set: SweepColumns | Sketch, meta: DocumentMeta = {}): AddResult {
    return inMemory(this.sweep(set, meta));
  }

  /**
   * The steps of `insertMany`, yielding each request for the candidate pairs among the new
   * documents (answered by the DuckDB engine's finder for sweeps whose pairs do not fit in memory).
   * @internal
   */
  sweep(set: SweepColumns | Sketch, meta: DocumentMeta = {}): Generator<PairRequest, AddResult, PairTable> {
    return this.groups.sweep(asColumns(set, 'ResembleIndex.insertMany'), meta);
  }

  /** True when a live document has this key. */
  has(key: string): boolean {
    checkKey(key, 'has');
    return this.store.docIds(key).length > 0;
  }

  /**
   * Removes documents, by key (every live document with it; E_KEY when there is none, as
   * datasketch) or by DocIds; their clusters are re-formed from the remaining members.
   * Returns how many live documents were removed.
   */
  remove(keyOrIds: string | ArrayLike<number>): number {
    if (typeof keyOrIds === 'string') {
      const ids = this.store.docIds(keyOrIds);
      if (ids.length === 0) throw new ResembleError('E_KEY', `remove: key ${JSON.stringify(keyOrIds)} is not in the index`, { key: keyOrIds });
      return this.groups.remove(ids);
    }
    for (let i = 0; i < keyOrIds.length; i++) this.store.checkId(keyOrIds[i]);
    return this.groups.remove(keyOrIds);
  }

  /**
   * Documents resembling a query, best first (resemblance descending, then containment, then
   * DocId), thresholded as the options say. The query is a sketch (of any document, in the index
   * or not) or the key of a live document: its newest document's sketch, that document left out.
   */
  query(input: Sketch | ClusterColumns | string, options: QueryOptions = {}): QueryHit[] {
    const parts = { store: this.store, postings: this.postings, clusters: this.groups, policy: this.options };
    if (typeof input === 'string') {
      const id = this.store.docIds(input)[0];
      if (id === undefined) throw new ResembleError('E_KEY', `query: key ${JSON.stringify(input)} is not in the index`, { key: input });
      if (options?.exclude !== undefined) throw optionError('exclude', 'no value with a query by key (its document is left out)', options.exclude);
      return rankedHits(parts, this.store.sketch(id), { ...options, exclude: id });
    }
    return rankedHits(parts, asSketch(input, 'ResembleIndex.query'), options);
  }

  /** The sketch of document `id` (a view). */
  sketch(id: number): Sketch {
    return this.store.sketch(id);
  }

  /** Lost and found, key → DocIds: the live documents with this key, newest DocId first. */
  docIds(key: string): number[] {
    checkKey(key, 'docIds');
    return this.store.docIds(key);
  }

  /** Lost and found, DocId → key: the key (URL) of document `id`, undefined when it has none. */
  key(id: number): string | undefined {
    this.store.checkId(id);
    return this.store.urls[id];
  }

  /** The crawl date of document `id` (ISO 8601), undefined when unknown. */
  dateOf(id: number): string | undefined {
    this.store.checkId(id);
    return this.store.dateOf(id);
  }

  /** True when document `id` was removed. */
  isRemoved(id: number): boolean {
    this.store.checkId(id);
    return this.store.removed[id] === 1;
  }

  /**
   * Lost and found, document → cluster: the number of the cluster of document `id` (or of the
   * newest live document with this key), as `clusters()` lists them and `findNearDuplicates`
   * numbers them; -1 when it is in none, removed or unknown.
   */
  clusterOf(idOrKey: number | string): number {
    if (typeof idOrKey === 'string') {
      const id = this.store.docIds(idOrKey)[0];
      return id === undefined ? -1 : this.groups.clusterOf(id);
    }
    this.store.checkId(idOrKey);
    return this.groups.clusterOf(idOrKey);
  }

  /** Lost and found, cluster → documents: every cluster of two or more live documents, as its ascending DocIds; cluster c is `clusters()[c]`, ordered by smallest member. */
  clusters(): Uint32Array[] {
    return this.groups.clusters();
  }

  /**
   * Lost and found: the key of the newest document (by crawl date, unknown dates oldest, then
   * highest DocId) in the cluster of any live document with this key; undefined when unknown.
   */
  newestUrl(key: string): string | undefined {
    checkKey(key, 'newestUrl');
    return this.groups.newest(key);
  }

  /** Serializes the index (sketches, keys, dates, removals, clusters and postings, merged first) in the versioned index format. */
  save(): Uint8Array {
    this.postings.compact();
    return encodeIndex(this.state());
  }

  /** Reads an index written by `save`; wrong magic, version, checksum (E_FORMAT) or parameters (E_PARAMS, with `options.params`) are rejected. */
  static load(bytes: Uint8Array, options: LoadIndexOptions = {}): ResembleIndex {
    return ResembleIndex.fromState(decodeIndex(bytes, options));
  }

  /**
   * The stored columns (views), as the file holds them.
   * @internal
   */
  state(): IndexState {
    return {
      ...this.store.stored(), params: this.params, options: this.options, roots: this.groups.roots(),
      postings: this.postings.main, baseEnd: this.postings.mainEnd, staleRemovals: this.postings.staleRemovals, templates: this.templates,
    };
  }

  /**
   * An index from stored columns; the arrays are adopted, not copied.
   * @internal
   */
  static fromState(s: IndexState): ResembleIndex {
    const index = new ResembleIndex(s.params, { ...s.options });
    index.store = IndexStore.adopt(index.params, s);
    index.postings = new IndexPostings(index.store);
    index.postings.adopt(s.postings, s.baseEnd, s.staleRemovals);
    index.groups = new IndexClusters(index.store, index.postings, index.options);
    index.groups.adopt(s.roots);
    for (const [site, t] of s.templates ?? []) index.templates.set(site, t);
    return index;
  }
}

/** Takes an index; returns its bytes in the versioned index format (as `index.save()`). */
export function saveIndex(index: ResembleIndex): Uint8Array {
  return index.save();
}

/** Takes the bytes of a saved index and what to check; returns the index (as `ResembleIndex.load`). */
export function loadIndex(bytes: Uint8Array, options: LoadIndexOptions = {}): ResembleIndex {
  return ResembleIndex.load(bytes, options);
}
