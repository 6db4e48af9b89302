// `studyDuplicates`: where and how duplicates occur in a crawl (Pereira, Baeza-Yates and Ziviani),
// as `resemble study` reports it: one record, the whole report with URLs in place of DocIds (the
// line `resemble study --format jsonl` prints); the report itself gives the markdown tables and plots.
import { intOption, optionError } from '../errors.js';
import { checkEntry, readEntry, type CrawlInput, type EntryOptions, type EntryResult, type ReadSummary } from '../stream/entry.js';
import type { StreamProgress } from '../stream/sketch-crawl.js';
import { plain } from '../report/plain.js';
import { studyOfColumns } from './crawl-study.js';
import type { ProfilePoint } from './estimate.js';
import type { StudyReport } from './study.js';
import { readForStudy } from './stream.js';

/** Defaults of `studyDuplicates` (and of the flags of `resemble study`). */
export const STUDY_DEFAULTS = { minChars: 450, maxSentence: 150, sentencesPerParagraph: 3, parts: 1 } as const;

/** Options of `studyDuplicates`: the flags of `resemble study`, each with its default. */
export interface StudyDuplicatesOptions extends EntryOptions {
  /** Seed URLs of the crawl simulator (default: a page of the largest strongly connected component). */
  seeds?: string[];
  /** Parts the growth is measured in (default 1). */
  parts?: number;
  /** Near-duplicate levels, in percent of shared paragraphs (default the paper's). */
  near?: number[];
  /** A growth profile to extrapolate with (an earlier report's `growth.profile`). */
  profile?: ProfilePoint[];
  /** Pages with less visible text are left out (default 450 characters). */
  minChars?: number;
  /** A sentence ends at a period, or after this many characters (default 150). */
  maxSentence?: number;
  /** Sentences per shingle paragraph (default 3). */
  sentencesPerParagraph?: number;
  /** Called as pages are read. */
  onProgress?: (p: StreamProgress) => void;
}

/** The counts of `resemble study`'s read summary, and the report's own. */
export interface StudySummary extends ReadSummary {
  /** Clusters of duplicates (pages with the same paragraphs). */
  clusters: number;
}

/** What `studyDuplicates` resolves to: the one record `resemble study --format jsonl` prints, its summary, and the report (for `studyMarkdown` and `studyPlots`). */
export interface StudiedDuplicates extends EntryResult<Record<string, unknown>, StudySummary> {
  report: StudyReport;
}

const KNOWN = ['workers', 'read', 'onError', 'onWarning', 'signal', 'seeds', 'parts', 'near', 'profile', 'minChars', 'maxSentence', 'sentencesPerParagraph', 'onProgress'];

/** Studies where duplicates occur in a crawl (Tables 2–6, growth): the record `resemble study --format jsonl` prints. */
export async function studyDuplicates(input: CrawlInput, options: StudyDuplicatesOptions = {}): Promise<StudiedDuplicates> {
  options = checkEntry(input, options, KNOWN, 'studyDuplicates');
  const d = STUDY_DEFAULTS;
  const paragraphs = {
    minChars: intOption('minChars', options.minChars, d.minChars, 0, 2 ** 31),
    maxSentence: intOption('maxSentence', options.maxSentence, d.maxSentence, 1, 1 << 20),
    sentencesPerParagraph: intOption('sentencesPerParagraph', options.sentencesPerParagraph, d.sentencesPerParagraph, 1, 1 << 10),
  };
  const parts = intOption('parts', options.parts, d.parts, 1, 2 ** 31);
  if (options.near !== undefined && (!Array.isArray(options.near) || options.near.some((v) => !(v > 0 && v <= 100)))) throw optionError('near', 'percentages in (0, 100]', options.near);
  if (options.seeds !== undefined && (!Array.isArray(options.seeds) || options.seeds.some((s) => typeof s !== 'string'))) throw optionError('seeds', 'an array of URLs', options.seeds);
  if (options.profile !== undefined && (!Array.isArray(options.profile) || options.profile.length === 0)) throw optionError('profile', 'an array of profile points', options.profile);
  const started = performance.now();
  const { read, errors } = await readEntry(input, options, (r) => readForStudy(r.inputs, paragraphs, { ...r.workers, read: r.read, onProgress: r.onProgress }));
  const { stream, graph, columns } = read;
  const summary: StudySummary = { pages: stream.urls.length, bytes: stream.bytes, errors, skipped: { ...stream.skipped }, workers: stream.workers, seconds: 0, clusters: 0 };
  if (summary.pages === 0) return { records: [], summary, report: undefined as unknown as StudyReport };
  const report = studyOfColumns(columns, graph, { parts, near: options.near, seeds: options.seeds, profile: options.profile });
  const urls = graph.urls;
  const record = plain({
    ...report,
    seeds: report.seeds.map((id) => ({ docId: id, url: urls[id] })),
    clusters: report.clusters.map((members, i) => ({ cluster: i, size: members.length, members: members.map((id) => urls[id]) })),
  }) as Record<string, unknown>;
  summary.clusters = report.clusters.length;
  summary.seconds = (performance.now() - started) / 1000;
  return { records: [record], summary, report };
}
