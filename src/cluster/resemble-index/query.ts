// On-the-fly resemblance (paper, "On the fly resemblance"): the indexed documents resembling any
// document, found through the postings and ranked best first.
import { intOption, numberOption, rejectUnknown } from '../../errors.js';
import { assertComparable } from '../../sketch/sketch.js';
import type { Sketch } from '../../sketch/sketch-set.js';
import { words } from '../../sketch/columns.js';
import { C_AB, C_BA, SHARED, SetEstimator, type Row } from '../../sketch/row-estimates.js';
import type { IndexClusters } from './clusters.js';
import type { QueryHit, QueryOptions, ResolvedIndexOptions } from './options.js';
import type { IndexPostings } from './postings.js';
import type { IndexStore } from './store.js';

/** What a query reads: the documents, their postings and clusters, and the index's policy (the default thresholds). */
export interface QueryParts {
  store: IndexStore;
  postings: IndexPostings;
  clusters: IndexClusters;
  policy: ResolvedIndexOptions;
}

/** Best first: resemblance descending, then the larger containment descending, then DocId. */
const rank = (x: QueryHit, y: QueryHit) => y.resemblance - x.resemblance || Math.max(y.containment, y.contains) - Math.max(x.containment, x.contains) || x.doc - y.doc;

/**
 * Takes the index's parts, a checked query sketch and query options; returns the documents
 * resembling it, best first, thresholded as the options say (E_OPTION, E_PARAMS before any work).
 */
export function rankedHits(parts: QueryParts, q: Sketch, options: QueryOptions): QueryHit[] {
  const { store, postings, clusters, policy } = parts;
  rejectUnknown(options, ['threshold', 'containment', 'limit', 'commonCap', 'exclude'], 'query');
  assertComparable(q.params, store.params, 'the query sketch and the index');
  const threshold = numberOption('threshold', options.threshold, policy.threshold, 0, 1);
  const containment = options.containment === undefined ? policy.containment : numberOption('containment', options.containment, 0, 0, 1);
  const limit = intOption('limit', options.limit, 0x7fffffff, 0, 0x7fffffff);
  const cap = intOption('commonCap', options.commonCap, 0x7fffffff, 1, 0x7fffffff);
  const exclude = options.exclude === undefined ? -1 : intOption('exclude', options.exclude, -1, 0, 0x7fffffff);
  postings.indexUpTo(store.n);
  const cols = store.columns();
  const est = new SetEstimator(cols);
  const row: Row = { w: words(q.values), start: 0, end: q.values.length, cardinality: q.cardinality, modulusLog2: q.modulusLog2 };
  const hits: QueryHit[] = [];
  if (limit === 0) return hits;
  // A few best hits: keep them ranked as they come, and let the scan stop below the last one.
  const topK = limit <= 64;
  postings.candidates(row, est, { cap, exclude, below: store.n, threshold, containment, byBound: topK }, (d) => {
    const r = est.out[0], cqd = est.out[C_AB], cdq = est.out[C_BA];
    if (!(r >= threshold || (containment !== undefined && (cqd >= containment || cdq >= containment)))) return;
    const hit: QueryHit = { doc: d, key: store.urls[d], date: store.dateOf(d), resemblance: r, containment: cqd, contains: cdq, shared: est.out[SHARED], cluster: -1 };
    if (!topK) { hits.push(hit); return; }
    let at = hits.length;
    while (at > 0 && rank(hit, hits[at - 1]) < 0) at--;
    if (at >= limit) return hits[limit - 1].resemblance;
    hits.splice(at, 0, hit);
    if (hits.length > limit) hits.pop();
    return hits.length === limit ? hits[limit - 1].resemblance : undefined;
  });
  if (!topK) hits.sort(rank);
  const out = hits.length > limit ? hits.slice(0, limit) : hits;
  // numbered after the scan: the numbering is computed once for all hits
  for (const h of out) h.cluster = clusters.clusterOf(h.doc);
  return out;
}
