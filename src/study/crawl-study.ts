/** The duplicate study of a loaded crawl: documents → visible text → shingle paragraphs, links from its web graph. */
import { ResembleError, rejectUnknown } from '../errors.js';
import type { Document } from '../graph/document.js';
import type { WebGraph } from '../graph/web-graph.js';
import { fingerprintMany } from '../sketch/rabin.js';
import { paragraphColumns, type ParagraphColumns } from './columns.js';
import { pageText } from './page-text.js';
import { PARAGRAPH_OPTION_KEYS, paragraphParams, type ParagraphOptions } from './paragraphs.js';
import { duplicateStudy, STUDY_OPTION_KEYS, type StudyOptions, type StudyReport } from './study.js';

/** Options of `studyCrawl`: paragraph and study options, with seeds given as URLs. */
export interface CrawlStudyOptions extends ParagraphOptions, Omit<StudyOptions, 'seeds'> {
  /** Seed URLs of the crawl simulator (any spelling the graph normalizes). Default: a page of the largest strongly connected component. */
  seeds?: string[];
}

/** Takes a crawl's documents and web graph (same DocIds) and options; returns the study (after `await init()`). */
export function studyCrawl(documents: readonly Document[], graph: WebGraph, options: CrawlStudyOptions = {}): StudyReport {
  rejectUnknown(options, [...PARAGRAPH_OPTION_KEYS, ...STUDY_OPTION_KEYS], 'studyCrawl');
  const { seeds, parts, near, profile, ...paragraphOptions } = options;
  const params = paragraphParams(paragraphOptions);
  const cols = paragraphColumns(documents.map(pageText), params, fingerprintMany);
  return studyOfColumns(cols, graph, { seeds, parts, near, profile });
}

/**
 * Takes a crawl's paragraph columns (built with the paragraph options, e.g. while it streamed) and
 * its web graph (same DocIds) and the study options; returns the study, as `studyCrawl` would.
 */
export function studyOfColumns(cols: ParagraphColumns, graph: WebGraph, options: Omit<CrawlStudyOptions, keyof ParagraphOptions> = {}): StudyReport {
  rejectUnknown(options, STUDY_OPTION_KEYS, 'studyOfColumns');
  const { seeds, parts, near, profile } = options;
  let seedIds: number[] | undefined;
  if (seeds !== undefined) {
    seedIds = seeds.map((url) => {
      const id = graph.docId(url);
      if (id === undefined) throw new ResembleError('E_OPTION', `seed URL not in the crawl: ${url}`, { option: 'seeds', got: url });
      return id;
    });
  }
  const links = { offsets: graph.linkOffsets, targets: graph.linkTargets };
  return duplicateStudy(cols, links, { parts, near, profile, seeds: seedIds });
}
