import { ResembleError } from '../errors.js';
import type { DocInput } from '../sketch/input.js';
import { collectionOptions, collectionsOfGraph, type CollectionOptions, type ReplicatedCollections } from './find.js';
import type { PageGraph } from './page-graph.js';
import { DEFAULT_SIMILARITY, parseSimilarity, similarPages, type SimilarPages, type Similarity } from './similarity.js';

/** Options of `replicatedCollections`: the similarity test and the growing options. */
export interface ReplicatedOptions extends CollectionOptions {
  /** Page similarity ST: `chunks:4:15` (default), `chunks:2:25`, `chunks:doc`, `chunks:sentence:T`, `sketch:0.5`, or an object. */
  similarity?: string | Partial<Similarity>;
}

/**
 * Takes the pages' contents (DocId order) and their link graph; returns the similar clusters and
 * the page similarity they were grown from. Needs `await init()` first.
 */
export function replicatedCollections(
  pages: ArrayLike<DocInput>, graph: PageGraph, options: ReplicatedOptions = {},
): ReplicatedCollections & { similarity: SimilarPages } {
  const { similarity = DEFAULT_SIMILARITY, ...grow } = options;
  const sim = parseSimilarity(similarity);
  collectionOptions(grow, graph.size);
  if (pages.length !== graph.size) throw new ResembleError('E_INPUT', `expected ${graph.size} pages for the graph, got ${pages.length}`, { pages: pages.length, graph: graph.size });
  const similar = similarPages(pages, sim);
  return { ...collectionsOfGraph(graph, similar, grow), similarity: similar };
}
