import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { optionError, ResembleError } from '../../errors.js';
import { init } from '../../index.js';
import { STUDY_DEFAULTS, studyDuplicates, type StudyDuplicatesOptions } from '../../study/entry.js';
import type { ProfilePoint } from '../../study/estimate.js';
import { studyMarkdown, studyPlots } from '../../study/report.js';
import { intFlag, stringOf, READER_FLAGS } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { cliReadOptions, pipelineOf, readSummary, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
import { checkOutput, writeFileAtomic, writeRecords } from '../output.js';

/** Where the study report's members are for CSV: one row per member URL of each cluster. */
const STUDY_CSV_MEMBERS = ['clusters', 'members'];

/** Takes the --near value ("90,70,50"); returns the thresholds. */
function nearOf(raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim() === '') return [];
  const values = raw.split(',').map((s) => Number(s.trim()));
  if (values.some((v) => !(v > 0 && v <= 100))) throw optionError('--near', 'comma-separated percentages in (0, 100]', raw);
  return values;
}

/** Takes a --profile file: a previous `resemble study --format json` output or an array of profile points. */
async function profileOf(path: string | undefined): Promise<ProfilePoint[] | undefined> {
  if (path === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (e) {
    throw new ResembleError('E_INPUT', `cannot read the growth profile ${path}: ${(e as Error).message}`, { path });
  }
  const points = Array.isArray(parsed) ? parsed : (parsed as { growth?: { profile?: unknown } })?.growth?.profile;
  if (!Array.isArray(points) || points.length === 0) {
    throw new ResembleError('E_INPUT', `${path} holds no growth profile (expected a study's JSON output or [{fraction, clusters, duplicates}...])`, { path });
  }
  return points as ProfilePoint[];
}

/**
 * `resemble study`: where and how duplicates occur (Pereira, Baeza-Yates, Ziviani 2006) — Tables 2–6,
 * growth per step, and with --plots the cluster-size distributions and growth curves as SVG.
 */
export const command: Command = {
  name: 'study',
  summary: 'duplicate study with shingle paragraphs: duplicates in the connected and disconnected parts (Tables 2–6)',
  usage: `Usage: resemble study INPUT... [--seeds URL]... [--parts m] [--plots DIR] [flags]

Splits each page's visible text into sentences (a period, or 150 characters without one) and shingle
paragraphs (3 sentences, no overlap); pages under 450 characters are left out. Duplicates are pages
with the same multiset of paragraphs; near-duplicates share at least p% of the paragraphs of both.
Pages reached by following links from the seeds form the connected part, the rest the disconnected.
Prints the paper's tables as markdown, or the whole report with --format json / jsonl (clusters with
their member URLs, distributions, growth and its profile); --format csv writes one row per cluster
member (clusters.cluster, clusters.members: its URL), the report's figures repeated on each row.

Flags:
  --seeds URL           seed page of the crawl simulator; repeat for several (default: the lowest
                        DocId of the largest strongly connected component)
  --parts m             subcollections of the memory-bounded algorithm (default 1)
  --near LIST           near-duplicate thresholds in percent, comma-separated; "" for none (default 90,70,50)
  --profile FILE        growth profile of another collection (its study JSON): estimates the final
                        duplicates after each step (§4.2)
  --plots DIR           write cluster-sizes.svg (Figures 2–4) and growth.svg (Figure 5) into DIR
  --min-chars N         pages with less text are left out (default 450)
  --max-sentence N      a sentence without a period ends at this character (default 150)
  --sentences N         sentences per shingle paragraph (default 3)
  --workers N           threads that cut pages into paragraphs while the input is read (default: the
                        available cores); the output is the same for any N

The input is read as a stream: each batch of pages is cut into paragraphs on the worker threads and
only the paragraph fingerprints, URLs and links are kept.`,
  formats: { accepted: ['jsonl', 'json', 'csv'], unset: 'markdown tables' },
  options: {
    ...READER_FLAGS,
    seeds: { type: 'string', multiple: true },
    parts: { type: 'string' },
    near: { type: 'string' },
    profile: { type: 'string' },
    plots: { type: 'string' },
    'min-chars': { type: 'string' },
    'max-sentence': { type: 'string' },
    sentences: { type: 'string' },
    workers: { type: 'string' },
  },
  async run(ctx: CommandContext) {
    const v = ctx.values;
    const format = v.format === undefined ? 'markdown' : String(v.format);
    const { workers } = pipelineOf({ workers: v.workers });
    const D = STUDY_DEFAULTS;
    const options: StudyDuplicatesOptions = {
      minChars: intFlag(v, 'min-chars', D.minChars, 0, 2 ** 31),
      maxSentence: intFlag(v, 'max-sentence', D.maxSentence, 1, 1 << 20),
      sentencesPerParagraph: intFlag(v, 'sentences', D.sentencesPerParagraph, 1, 1 << 10),
      parts: intFlag(v, 'parts', D.parts, 1, 2 ** 31),
      ...(workers !== undefined ? { workers } : {}),
    };
    const near = nearOf(stringOf(v, 'near'));
    if (near !== undefined) options.near = near;
    if (v.seeds !== undefined) options.seeds = v.seeds as string[];
    const profile = await profileOf(stringOf(v, 'profile'));
    if (profile !== undefined) options.profile = profile;
    const plots = stringOf(v, 'plots');
    if (plots !== undefined) checkOutput(plots, ctx.positionals, '--plots');
    if (ctx.positionals.length === 0) throw optionError('INPUT', 'at least one crawl input', 'none');
    requireInputs(ctx.positionals);
    await init();
    const display = await startPipelineProgress(ctx, ctx.positionals);
    let found;
    try {
      found = await studyDuplicates(ctx.positionals.length === 1 ? ctx.positionals[0] : { paths: ctx.positionals }, { ...options, ...cliReadOptions(ctx), onProgress: (p) => display.read(p) });
    } finally {
      display.stop();
    }
    const s = found.summary;
    if (!ctx.quiet) ctx.err.write(readSummary({ urls: { length: s.pages } as string[], bytes: s.bytes, errors: { length: s.errors } as unknown[], skipped: s.skipped }) + '\n');
    requireDocuments(s.pages, s.errors, ctx.positionals);
    const report = found.report;
    if (format === 'markdown') ctx.out.write(studyMarkdown(report));
    else {
      const json = found.records[0];
      if (format === 'csv') writeRecords(ctx.out, 'csv', [json], { members: STUDY_CSV_MEMBERS });
      else ctx.out.write(format === 'json' ? JSON.stringify(json, null, 2) + '\n' : JSON.stringify(json) + '\n');
    }
    if (plots !== undefined) {
      await mkdir(plots, { recursive: true });
      const files = await studyPlots(report);
      for (const [name, svg] of Object.entries(files)) writeFileAtomic(join(plots, name), svg);
      if (!ctx.quiet) ctx.err.write(`plots: ${Object.keys(files).map((f) => join(plots, f)).join(', ')}\n`);
    }
    return 0;
  },
};
