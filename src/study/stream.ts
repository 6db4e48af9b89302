// The duplicate study from a stream: while the crawl is read, each batch's pages are turned into
// their visible text, cut into shingle paragraphs and fingerprinted (on the page pool), and their
// out-links kept for the web graph; the pages themselves are let go batch by batch. What is held
// is the paragraph fingerprints (8 bytes per paragraph of three sentences), the URLs and the links.
import { rejectUnknown } from '../errors.js';
import type { ReadError } from '../graph/document.js';
import type { WebGraph } from '../graph/web-graph.js';
import type { ParagraphColumns } from './columns.js';
import { studyOfColumns, type CrawlStudyOptions } from './crawl-study.js';
import { PARAGRAPH_OPTION_KEYS, paragraphParams, type ParagraphOptions } from './paragraphs.js';
import { STUDY_OPTION_KEYS, type StudyReport } from './study.js';
import { resultOf, work, type PageJobResult } from '../stream/page-jobs.js';
import { PARAGRAPHS } from './page-columns.js';
import { graphOf, streamPages, type PageStream, type StreamReadOptions } from '../stream/page-stream.js';
import type { Inputs } from '../io/pages.js';

/** What `readForStudy` returns: the stream's columns, the web graph and the paragraph columns. */
export interface StudyInput {
  stream: PageStream;
  graph: WebGraph;
  columns: ParagraphColumns;
}

/** Takes the batches' paragraph columns (in input order, with their first DocIds) and the page count; returns them as one set of columns. */
export function concatParagraphColumns(results: readonly PageJobResult[], starts: readonly number[], docCount: number): ParagraphColumns {
  let n = 0, total = 0;
  const columns = results.map((r) => resultOf(r, PARAGRAPHS)!);
  for (const c of columns) { n += c.docIds.length; total += c.fps.length; }
  const docIds = new Uint32Array(n), offsets = new Uint32Array(n + 1), fps = new BigUint64Array(total);
  let p = 0, at = 0;
  columns.forEach((c, b) => {
    for (let i = 0; i < c.docIds.length; i++) { docIds[p + i] = starts[b] + c.docIds[i]; offsets[p + i + 1] = at + c.offsets[i + 1]; }
    fps.set(c.fps, at);
    p += c.docIds.length;
    at += c.fps.length;
  });
  return { docCount, docIds, offsets, fps, words: new Uint32Array(fps.buffer, fps.byteOffset, fps.length * 2) };
}

/**
 * Takes input path(s), the paragraph options and how to read; returns the web graph and the
 * paragraph columns of every page, read in one streaming pass (the same as `paragraphColumns` over
 * every page's `pageText` and `WebGraph.fromDocuments` over the loaded crawl). Unparseable URLs of
 * the graph are added to the stream's errors and reported to `read.onError`.
 */
export async function readForStudy(input: Inputs, paragraphs: ParagraphOptions = {}, options: StreamReadOptions = {}): Promise<StudyInput> {
  const params = paragraphParams(paragraphs);
  const stream = await streamPages(input, { ...options, read: { ...(options.read ?? {}), links: true }, job: [work(PARAGRAPHS, params)] });
  const graph = graphOf(stream, options.read?.onError as ((e: ReadError) => void) | undefined);
  return { stream, graph, columns: concatParagraphColumns(stream.results, stream.starts, stream.urls.length) };
}

/**
 * Takes input path(s), the study's options and how to read; returns the study of the crawl, read
 * as a stream (the same report as `studyCrawl` over the loaded crawl), with the URLs by DocId.
 */
export async function studyStream(input: Inputs, options: CrawlStudyOptions & StreamReadOptions = {}): Promise<{ report: StudyReport; urls: string[]; stream: PageStream }> {
  rejectUnknown(options, [...PARAGRAPH_OPTION_KEYS, ...STUDY_OPTION_KEYS, 'workers', 'batchBytes', 'read', 'onProgress'], 'studyStream');
  const { seeds, parts, near, profile, workers, batchBytes, read, onProgress, ...paragraphOptions } = options;
  const { stream, graph, columns } = await readForStudy(input, paragraphOptions, { workers, batchBytes, read, onProgress });
  return { report: studyOfColumns(columns, graph, { seeds, parts, near, profile }), urls: graph.urls, stream };
}
