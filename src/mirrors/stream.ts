// Mirrored hosts from a stream: while the crawl is read, each batch's pages are sketched (on the
// page pool) when the ranking or the mirroring test needs their content, and their URLs, sources,
// server IPs and out-links are kept as columns; the pages themselves are let go batch by batch.
// The sketches are all the content evidence both need: hybrid compares the pages' sketches, and
// the mirroring test's default similarity is the resemblance of the same sketches.
import type { Document, ReadError } from '../graph/document.js';
import type { WebGraph } from '../graph/web-graph.js';
import { resolveSketchOptions, type SketchOptions } from '../sketch/options.js';
import type { SketchError, SketchSet } from '../sketch/sketch-set.js';
import { assembleSketchSet } from '../stream/pool.js';
import { graphOf, streamPages, type PageStream, type StreamReadOptions } from '../stream/page-stream.js';
import { resultOf, SKETCHES, work } from '../stream/page-jobs.js';
import type { Inputs } from '../io/pages.js';
import { CrawlPhenomena, redirectMap, ROLE_PAGE, type PhenomenaReport } from '../io/crawl-phenomena.js';

/** How `readForMirrors` reads the crawl. */
export interface MirrorStreamOptions extends StreamReadOptions {
  /** Extract each page's out-links (conn, hconn, combined and hybrid need them). Default true. */
  links?: boolean;
  /** Sketch every page with these options (the mirroring test and hybrid use the defaults, `{}`); false: no sketches. Default false. */
  sketch?: SketchOptions | false;
  /**
   * Read the crawl's web phenomena (io/crawl-phenomena.ts) and keep them out of the evidence: URL
   * variants and re-captures are their page (not paths of their own), soft-404s are no page at
   * all, links to a redirected URL lead where the redirect does. Default true.
   */
  phenomena?: boolean;
}

/** What `readForMirrors` returns. */
export interface MirrorStreamInput {
  stream: PageStream;
  graph: WebGraph;
  /** Every page's sketch, with `sketch`. */
  set?: SketchSet;
  /** The pages as the mirror algorithms read them, without their bytes: URL, source, out-links (through redirects), server IP; variants and soft-404s left out. */
  pages: Document[];
  /** What the crawl holds besides its pages (with `phenomena`). */
  phenomena?: PhenomenaReport;
}

const EMPTY = new Uint8Array(0);

/**
 * Takes input path(s) and options; returns the crawl's columns and graph, its pages without bytes
 * (for `mirrorInputFromDocuments` and `LinkTable.fromDocuments`) and, with `sketch`, every page's
 * sketch, read in one streaming pass.
 */
export async function readForMirrors(input: Inputs, options: MirrorStreamOptions = {}): Promise<MirrorStreamInput> {
  const sketch = options.sketch ?? false;
  const params = sketch === false ? undefined : resolveSketchOptions(sketch);
  const collector = options.phenomena === false ? undefined : new CrawlPhenomena();
  const stream = await streamPages(input, {
    job: sketch === false ? [] : [work(SKETCHES, sketch)], workers: options.workers, batchBytes: options.batchBytes, onProgress: options.onProgress,
    read: { ...(options.read ?? {}), links: options.links ?? true }, keepIps: true, phenomena: collector,
  });
  const graph = graphOf(stream, options.read?.onError as ((e: ReadError) => void) | undefined);
  let set: SketchSet | undefined;
  if (params) {
    const errors: SketchError[] = [];
    const parts = stream.results.map((r, b) => {
      const s = resultOf(r, SKETCHES)!;
      for (const e of s.errors) errors.push({ index: stream.starts[b] + e.index, message: e.message.replace(/^document \d+/, `document ${stream.starts[b] + e.index}`) });
      return { start: stream.starts[b], end: stream.starts[b] + r.n, columns: s.columns };
    });
    set = assembleSketchSet(params, stream.urls.length, parts, errors);
    for (const r of stream.results) delete r.columns[SKETCHES.name];
  }
  const all: Document[] = stream.urls.map((url, i) => ({ url, bytes: EMPTY, source: stream.sources[i], links: stream.links?.[i], ip: stream.ips?.[i] }));
  if (!collector) return { stream, graph, set, pages: all };
  const phenomena = collector.report();
  for (const e of phenomena.errors) {
    stream.errors.push(e);
    (options.read?.onError as ((e: ReadError) => void) | undefined)?.(e);
  }
  for (const w of phenomena.warnings) (options.read?.onWarning as ((e: ReadError) => void) | undefined)?.(w);
  // variants, re-captures and soft-404s are no evidence: no paths of their own, no content
  const redirected = redirectMap(phenomena.redirects);
  const pages: Document[] = [];
  for (let d = 0; d < all.length; d++) {
    if (phenomena.roles[d] !== ROLE_PAGE) {
      stream.utf8Sizes[d] = 0;
      continue;
    }
    const p = all[d];
    if (p.links && redirected.size > 0) p.links = p.links.map((l) => redirected.get(l) ?? l);
    pages.push(p);
  }
  return { stream, graph, set, pages, phenomena };
}
