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

/** How `readForMirrors` reads the crawl. */
export interface MirrorStreamOptions extends StreamReadOptions {
  /** Extract each page's out-links (conn, hconn, combined and hybrid need them). Default true. */
  links?: boolean;
  /** Sketch every page with these options (the mirroring test and hybrid use the defaults, `{}`); false: no sketches. Default false. */
  sketch?: SketchOptions | false;
}

/** What `readForMirrors` returns. */
export interface MirrorStreamInput {
  stream: PageStream;
  graph: WebGraph;
  /** Every page's sketch, with `sketch`. */
  set?: SketchSet;
  /** The pages as the mirror algorithms read them, without their bytes: URL, source, out-links, server IP. */
  pages: Document[];
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
  const stream = await streamPages(input, {
    job: sketch === false ? [] : [work(SKETCHES, sketch)], workers: options.workers, batchBytes: options.batchBytes, onProgress: options.onProgress,
    read: { ...(options.read ?? {}), links: options.links ?? true }, keepIps: true,
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
  const pages: Document[] = stream.urls.map((url, i) => ({ url, bytes: EMPTY, source: stream.sources[i], links: stream.links?.[i], ip: stream.ips?.[i] }));
  return { stream, graph, set, pages };
}
