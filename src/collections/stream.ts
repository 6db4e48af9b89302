// Replicated collections from a stream: while the crawl is read, each batch's pages are cut into
// chunks and fingerprinted (the paper's line chunks) or sketched on the worker pool (sketch:R), and
// their out-links kept for the web graph; the pages themselves are let go batch by batch.
import type { Document } from '../graph/document.js';
import { WebGraph } from '../graph/web-graph.js';
import { utf8Bytes } from '../graph/document.js';
import type { ReadOptions } from '../io/options.js';
import { chunkFingerprints, type ChunkColumns } from './chunks.js';
import { chunkParamsOf, pagesApart, sameKindOnly, similarFromChunks, similarFromSketches, similarWith, type SimilarPages, type Similarity } from './similarity.js';
import { CrawlPhenomena, ROLE_PAGE, type PhenomenaReport } from '../io/crawl-phenomena.js';
import { icebergOnEngine } from '../scale/candidates.js';
import type { EngineOptions } from '../scale/duckdb.js';
import type { SparkOptions } from '../scale/spark.js';
import { sketchCrawl, type CrawlSketch, type StreamProgress } from '../stream/sketch-crawl.js';
import type { Inputs } from '../io/pages.js';

/** Takes chunk columns of consecutive batches; returns them as one set of columns. */
export function concatChunkColumns(parts: readonly ChunkColumns[]): ChunkColumns {
  let n = 0, total = 0;
  for (const p of parts) { n += p.textFp.length; total += p.values.length; }
  const values = new BigUint64Array(total), offsets = new Uint32Array(n + 1), textFp = new BigUint64Array(n), empty = new Uint8Array(n);
  let d = 0, at = 0;
  for (const p of parts) {
    values.set(p.values, at);
    for (let i = 0; i < p.textFp.length; i++) offsets[d + i + 1] = at + p.offsets[i + 1];
    textFp.set(p.textFp, d);
    empty.set(p.empty, d);
    d += p.textFp.length;
    at += p.values.length;
  }
  return { values, offsets, textFp, empty };
}

/** What `readForCollections` returns: the graph, the trivial clusters and the small columns. */
export interface CollectionsInput {
  crawl: CrawlSketch;
  graph: WebGraph;
  similar: SimilarPages;
  /** What the crawl holds besides its pages (with `phenomena`): its soft-404s and URL variants are kept apart, no evidence of a collection. */
  phenomena?: PhenomenaReport;
  /** The similar pages before the URL variants and soft-404s were kept apart (the duplicate clusters URL rules are learnt from). */
  similarAll: SimilarPages;
}

/** Options of `readForCollections`. */
export interface ReadForCollectionsOptions {
  workers?: number;
  read?: ReadOptions;
  onProgress?: (p: StreamProgress) => void;
  /** 'memory' (default), 'duckdb' or 'spark': the iceberg query (pairs of pages sharing chunks or sketch values) as SQL, under a memory limit (DuckDB) or on a Spark cluster. */
  engine?: 'memory' | 'duckdb' | 'spark';
  /** DuckDB's (memoryLimit, tempDir…), or Spark's (master, sparkConf, tempDir…). */
  engineOptions?: EngineOptions | SparkOptions;
  /** Read the crawl's web phenomena (io/crawl-phenomena.ts) and keep its soft-404s and URL variants apart, similar to no page. Default true. */
  phenomena?: boolean;
}

const isHtml = (type: string | undefined) => type === 'text/html' || type === 'application/xhtml+xml';

/** Takes inputs, the similarity test, worker count and reader options; returns the web graph and the trivial clusters, read in one streaming pass. */
export async function readForCollections(input: Inputs, sim: Similarity, options: ReadForCollectionsOptions = {}): Promise<CollectionsInput> {
  const parts: ChunkColumns[] = [];
  // 1 for an HTML page, 0 for other text (sources, scripts, stylesheets): a page is a copy only of a page of its kind
  const kinds: number[] = [];
  const collector = options.phenomena === false ? undefined : new CrawlPhenomena();
  const crawl = await sketchCrawl(input, {
    sketch: sim.kind === 'sketch' ? sim.sketch : false, workers: options.workers, keepLinks: true,
    read: collector ? collector.wrap({ ...(options.read ?? {}), links: true }) : { ...(options.read ?? {}), links: true },
    onProgress: options.onProgress,
    onBatch: (docs: readonly Document[], first: number) => {
      docs.forEach((d, k) => { kinds[first + k] = isHtml(d.contentType) ? 1 : 0; collector?.observe({ url: d.url, bytes: utf8Bytes(d), ip: d.ip }, first + k); });
      if (sim.kind === 'chunks') parts.push(chunkFingerprints(docs.map(utf8Bytes), chunkParamsOf(sim)));
    },
  });
  const pages: Document[] = crawl.urls.map((url, i) => ({ url, bytes: new Uint8Array(0), links: crawl.links?.[i], source: crawl.sources[i] }));
  const graph = WebGraph.fromDocuments(pages, { onError: options.read?.onError });
  const columns = sim.kind === 'chunks' ? concatChunkColumns(parts) : crawl.set;
  const engine = options.engine === 'spark' ? { engine: 'spark' as const, options: options.engineOptions as SparkOptions } : { engine: 'duckdb' as const, options: options.engineOptions as EngineOptions };
  const similar = options.engine === 'duckdb' || options.engine === 'spark'
    ? await similarWith(columns, sim, (values, offsets, o) => icebergOnEngine(values, offsets, o, engine))
    : sim.kind === 'chunks' ? similarFromChunks(columns as ChunkColumns, sim) : similarFromSketches(crawl.set, sim);
  const kept = sameKindOnly(similar, Uint8Array.from({ length: crawl.pages }, (_, i) => kinds[i] ?? 1));
  if (!collector || collector.size !== crawl.pages) return { crawl, graph, similar: kept, similarAll: kept };
  const phenomena = collector.report();
  for (const e of phenomena.errors) options.read?.onError?.(e);
  for (const w of phenomena.warnings) options.read?.onWarning?.(w);
  return { crawl, graph, similar: pagesApart(kept, Uint8Array.from(phenomena.roles, (r) => (r === ROLE_PAGE ? 0 : 1))), phenomena, similarAll: kept };
}
