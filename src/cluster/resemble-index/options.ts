// What an index is given and gives back: its clustering policy, the metadata of the documents
// inserted, query options and hits, and the request the candidate step of a sweep answers.
import { ResembleError, enumOption, intOption, numberOption, rejectUnknown } from '../../errors.js';
import type { ClusterColumns } from '../../sketch/columns.js';
import { NEAR_DUPLICATE_DEFAULTS } from '../defaults.js';
import type { EquivalenceLevel } from '../equivalence.js';
import type { PairTable } from '../pairs.js';

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

/** Per-document metadata of an `insertMany`: keys (URLs) and crawl dates (ISO strings or ms since 1970), one per document. */
export interface DocumentMeta {
  keys?: ArrayLike<string | undefined>;
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
  /** A DocId never returned (a query by key leaves its own document out without it). */
  exclude?: number;
}

/** A document resembling the query: estimates are the query's against it. */
export interface QueryHit {
  /** The document's DocId. */
  doc: number;
  /** The document's key (its URL), when it has one. */
  key?: string;
  /** Crawl date (ISO 8601), when known. */
  date?: string;
  /** Estimated resemblance of the query and the document. */
  resemblance: number;
  /** Containment of the query in the document. */
  containment: number;
  /** Containment of the document in the query. */
  contains: number;
  /** Sketch values shared with the query. */
  shared: number;
  /** The document's cluster, numbered as `clusters()` lists them (and as `findNearDuplicates` numbers them); -1 when it is in none. */
  cluster: number;
}

/** What an `insertMany` did. */
export interface AddResult {
  /** DocId given to the first new document: the others follow (first, first+1, …). */
  first: number;
  /** Documents inserted. */
  count: number;
  /** New documents short-cut as identical to an indexed one. */
  identical: number;
  /** New documents short-cut as lexically equivalent to an indexed one. */
  lexical: number;
  /** New documents short-cut as shingle-equivalent to an indexed one. */
  shingle: number;
  /** Pairs over the policy found among the new documents, and joins of new documents to indexed clusters. */
  joins: number;
}

/** Resolved index options. */
export interface ResolvedIndexOptions {
  /** Resemblance at which documents join. */
  threshold: number;
  /** Containment at which documents join, when set. */
  containment?: number;
  /** Shingles in more documents than this make no candidates. */
  commonCap: number;
  /** Equivalent documents short-cut at this level. */
  equivalence: EquivalenceLevel;
}

/** The option names of an index's policy. */
export const INDEX_OPTION_NAMES = ['threshold', 'containment', 'commonCap', 'equivalence'] as const;

/** Takes index options; returns them validated (E_OPTION) with their defaults filled in. */
export function resolveIndexOptions(o: IndexOptions = {}): ResolvedIndexOptions {
  rejectUnknown(o, INDEX_OPTION_NAMES, 'ResembleIndex');
  return {
    threshold: numberOption('threshold', o.threshold, NEAR_DUPLICATE_DEFAULTS.threshold, 0, 1),
    containment: o.containment === undefined ? undefined : numberOption('containment', o.containment, 0, 0, 1),
    commonCap: intOption('commonCap', o.commonCap, NEAR_DUPLICATE_DEFAULTS.commonCap, 1, 0x7fffffff),
    equivalence: enumOption('equivalence', o.equivalence, NEAR_DUPLICATE_DEFAULTS.equivalence, ['none', 'identical', 'lexical', 'shingle'] as const),
  };
}

/**
 * What a sweep asks of the candidate step: the pairs among `docs` (ascending) of `columns` sharing
 * a sketch value held by at most `cap` of them, with estimates, those whose resemblance and
 * containments all fall below `floor` left out (as `candidatePairs(columns, columns, docs, cap, floor)`).
 */
export interface PairRequest {
  /** The sweep's rows. */
  columns: ClusterColumns;
  /** The rows to pair, ascending. */
  docs: Uint32Array;
  /** Values held by more rows than this make no candidates. */
  cap: number;
  /** Pairs whose estimates all fall below this are left out. */
  floor: number;
}

/** Takes a PairRequest; resolves to its candidate pairs (the DuckDB engine's finder, for sweeps whose pairs do not fit in memory). */
export type PairFinder = (request: PairRequest) => Promise<PairTable>;

/** Takes a crawl date (ms since 1970, or ISO 8601); returns ms since 1970, NaN when unknown. */
export function parseDate(d: string | number | undefined): number {
  if (d === undefined || d === '') return NaN;
  return typeof d === 'number' ? d : Date.parse(d);
}

/** Takes a key and the method's name; throws E_KEY unless it is a string. */
export function checkKey(key: unknown, where: string): asserts key is string {
  if (typeof key !== 'string') throw new ResembleError('E_KEY', `${where}: expected a string key, got ${key === null ? 'null' : typeof key}`, { key });
}
