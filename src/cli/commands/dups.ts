import { optionError } from '../../errors.js';
import { init, resolveSketchOptions } from '../../index.js';
import { withContentEvidence } from '../../template/evidence.js';
import { CONTENT_FLAGS, CONTENT_USAGE, contentOptionsOf, reportContent, type ContentFlags } from '../content.js';
import type { NearDuplicateOptions } from '../../cluster/near-duplicates.js';
import { clusterRecord } from '../../cluster/records.js';
import { findNearDuplicates, type FindNearDuplicatesOptions, type FoundNearDuplicates } from '../../cluster/stream.js';
import { enumFlag, formatOf, intFlag, numberFlag, SKETCH_FLAGS, SKETCH_USAGE, sketchOptionsOf, stringOf, READER_FLAGS } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { readOptionsFor, PIPELINE_FLAGS, PIPELINE_USAGE, pipelineOf, rateText, readSummary, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
import { createRecordWriter } from '../output.js';
import { count } from '../progress.js';

/** Flags shared by dups and index (the clustering policy). */
export const POLICY_FLAGS = {
  threshold: { type: 'string' },
  containment: { type: 'string' },
  'common-cap': { type: 'string' },
  equivalence: { type: 'string' },
} as const;

/** Help text for POLICY_FLAGS. */
export const POLICY_USAGE = `  --threshold R         resemblance at which two pages join a cluster, 0..1 (default 0.5)
  --containment C       also join when either page's containment in the other reaches C (default: off)
  --common-cap N        ignore shingles found in more than N pages (default 1000)
  --equivalence LEVEL   none | identical | lexical | shingle: equivalent pages set aside before
                        clustering and added back with that kind (default shingle: all three)`;

/** Takes parsed values; returns the policy options they set. */
export function policyOf(values: CommandContext['values']): { threshold: number; containment?: number; commonCap: number; equivalence: 'none' | 'identical' | 'lexical' | 'shingle' } {
  return {
    threshold: numberFlag(values, 'threshold', 0.5, 0, 1),
    containment: values.containment === undefined ? undefined : numberFlag(values, 'containment', 0, 0, 1),
    commonCap: intFlag(values, 'common-cap', 1000, 1, 0x7fffffff),
    equivalence: enumFlag(values, 'equivalence', 'shingle', ['none', 'identical', 'lexical', 'shingle'] as const),
  };
}

/** Flags of the commands that find near-duplicates from a crawl (dups, dedup). */
export const DUPS_FLAGS = {
  ...POLICY_FLAGS, method: { type: 'string' }, verify: { type: 'boolean' }, 'no-verify': { type: 'boolean' }, k: { type: 'string' },
  'super-shingle': { type: 'string' }, prefix: { type: 'string' }, 'prefix-hits': { type: 'string' }, 'exact-band': { type: 'string' }, ...PIPELINE_FLAGS, ...SKETCH_FLAGS,
  ...CONTENT_FLAGS, ...READER_FLAGS,
} as const;

/** Help text for the method and checking flags of DUPS_FLAGS. */
export const METHOD_USAGE = `  --method M            pairs (pages sharing sketch values; default), super-shingles (a shared
                        super-shingle makes a candidate), lsh (banding over a k-value signature)
  --prefix N|auto       pairs: key each page by its first N non-common sketch values (default auto:
                        44 at threshold 0.5, enough to miss a pair 4 standard errors under the
                        threshold once in a million; candidates stay near-linear on sites whose pages
                        share navigation); 0 keys every value (the paper's, quadratic there)
  --prefix-hits H       pairs: a pair is a candidate when it shares H of those keys (default 2; auto
                        prefixes are as long as H needs). 1 takes every pair sharing a key: on real
                        documentation about three times as many pairs estimated, the same clusters
  --no-verify           skip every check: super-shingles / lsh then join every candidate pair unchecked
                        (on real documentation, pairs far below the threshold: F1 0.12 and 0.88 against
                        exact resemblance), and no pair is checked exactly (below)
  --exact-band Z        pairs whose estimate lies within Z standard errors of the threshold (0.044 at
                        0.5 with s = 128) and that would join two clusters are checked exactly: their
                        pages are read back and shingled in full (default 3; 0 checks none): from
                        their records in plain JSONL and WARC files, .warc.gz files of one gzip member
                        per record and folders; from a temporary copy written while reading for stdin
                        and other gzip files. A page changed on disk meanwhile is reported, not joined
  --k N                 lsh: signature length (default 128)
  --super-shingle N     super-shingles: sketch values per super-shingle (default 2)`;

/** Pipeline options of a near-duplicate command, with the content flags they came from. */
export type NearDuplicateRun = FindNearDuplicatesOptions & { content: ContentFlags };

/** Takes parsed values; returns the pipeline options of a near-duplicate command (validated). */
export function findOptionsOf(values: CommandContext['values'], rule: NearDuplicateOptions['representative']): NearDuplicateRun {
  const policy = policyOf(values);
  const method = enumFlag(values, 'method', 'pairs', ['pairs', 'super-shingles', 'lsh'] as const);
  const sketchOptions = sketchOptionsOf(values);
  if (method === 'lsh') sketchOptions.k = intFlag(values, 'k', 128, 1, 4096);
  else if (values.k !== undefined) throw optionError('--k', 'no value unless --method lsh', values.k);
  if (method === 'super-shingles') sketchOptions.superShingle = intFlag(values, 'super-shingle', 2, 1, 64);
  else if (values['super-shingle'] !== undefined) throw optionError('--super-shingle', 'no value unless --method super-shingles', values['super-shingle']);
  const content = contentOptionsOf(values);
  Object.assign(sketchOptions, content.sketch);
  resolveSketchOptions(sketchOptions);
  if (values.verify && values['no-verify']) throw optionError('--verify', 'one of --verify and --no-verify', 'both');
  const verify = values['no-verify'] !== true;
  const cluster: NearDuplicateOptions = { ...policy, method, representative: rule };
  if (method !== 'pairs') cluster.verify = verify;
  const prefix = stringOf(values, 'prefix');
  if (prefix !== undefined && prefix !== 'auto') {
    if (method !== 'pairs') throw optionError('--prefix', 'no value unless --method pairs', prefix);
    cluster.prefix = intFlag(values, 'prefix', 0, 0, 4096);
  }
  if (values['prefix-hits'] !== undefined) {
    if (method !== 'pairs') throw optionError('--prefix-hits', 'no value unless --method pairs', values['prefix-hits']);
    cluster.prefixHits = intFlag(values, 'prefix-hits', 2, 1, 16);
  }
  const exactBand = numberFlag(values, 'exact-band', 3, 0, 10);
  if (!verify && values['exact-band'] !== undefined) throw optionError('--exact-band', 'no value with --no-verify', values['exact-band']);
  const { workers, engine, engineOptions } = pipelineOf(values);
  return { sketch: sketchOptions, cluster, workers, engine, engineOptions, exactBand, exact: verify, content, ...(content.template ? { templates: content.template } : {}) };
}

/** What the DuckDB engine's candidate step is doing, for the progress line. */
const ENGINE_STEPS: Record<string, string> = {
  common: 'counting the sketch values on too many pages (sketches on disk)…',
  load: 'writing each page\'s keys to DuckDB…',
  cap: 'DuckDB: dropping keys on too many pages…',
  pairs: 'DuckDB: counting pairs of pages sharing keys…',
  read: 'estimating the candidate pairs…',
};

/** Takes the command context, inputs and pipeline options; runs the near-duplicate pipeline with progress, read errors and the read summary on stderr. */
export async function runNearDuplicates(ctx: CommandContext, inputs: readonly string[], run: FindNearDuplicatesOptions & { content?: ContentFlags }): Promise<FoundNearDuplicates> {
  const { content: _content, ...options } = run;
  requireInputs(inputs);
  await init();
  const display = await startPipelineProgress(ctx, inputs);
  let found: FoundNearDuplicates;
  try {
    found = await findNearDuplicates(inputs, {
      ...options, read: readOptionsFor(ctx),
      onProgress: (e) => {
        if (e.stage === 'sketching') display.read(e.progress);
        else if (e.stage === 'candidates' && e.state === 'start') display.stage('candidates', 'pairs of pages sharing sketch values…');
        else if (e.stage === 'candidates' && e.state === 'step' && !e.done) display.stage('candidates', ENGINE_STEPS[e.detail] ?? `${e.detail}…`);
        else if (e.stage === 'exact') display.stage('exact checks', () => `${count(e.done)} pages shingled in full (pairs near the threshold)`);
      },
    });
  } finally {
    display.stop();
  }
  const c = found.crawl;
  for (const e of c.sketchErrors) ctx.err.write(`${c.sources[e.index]}: ${e.message}\n`);
  if (!ctx.quiet) ctx.err.write(readSummary(c) + '\n');
  try {
    requireDocuments(c.pages, c.errors.length, inputs);
  } catch (e) {
    found.close();
    throw e;
  }
  return found;
}

/** Takes a count and a noun; returns `1 page`, `2 pages` (with thousands separators). */
export function plural(n: number, noun: string, many = `${noun}s`): string {
  return `${count(n)} ${n === 1 ? noun : many}`;
}

/** Takes what the pipeline found and the seconds it took; returns the closing summary line, numbers with their meaning. */
export function dupsSummary(found: FoundNearDuplicates, seconds: number): string {
  const { nd, crawl } = found;
  const s = nd.stats, c = nd.clusters;
  const pages = crawl.pages;
  const copies = s.identical + s.lexical + s.shingle;
  const parts = [
    `dups: ${plural(c.count, 'cluster')} of near-duplicates hold ${count(c.stats.clusteredDocuments)} of ${plural(pages, 'page')} (${count(copies)} of them exact or equivalent copies)`,
    `${plural(s.candidatePairs, 'candidate pair')} compared (${(s.candidatePairs / Math.max(1, pages)).toFixed(1)} per page), ${count(c.stats.acceptedPairs)} joined`
      + (found.nearPairs > 0 ? `, ${count(found.nearPairs)} near the threshold ${found.exactPairs === found.nearPairs ? 'checked exactly' : `(${count(found.exactPairs)} checked exactly, the others between pages already joined)`}` : ''),
  ];
  if (s.lsh) parts.push(`lsh ${s.lsh.bands} bands × ${s.lsh.rows} rows`);
  parts.push(`${rateText(crawl.bytes, seconds)}, ${plural(crawl.workers, 'worker')}`);
  return parts.join('; ');
}

/** `resemble dups`: near-duplicate clusters of a crawl, one JSON line per cluster with evidence. */
export const command: Command = {
  name: 'dups',
  summary: 'cluster near-duplicate pages (Broder et al.), with the evidence for every member',
  usage: `Usage: resemble dups INPUT... [--threshold 0.5] [--containment C] [--method pairs|super-shingles|lsh]
                    [--workers N] [--engine memory|duckdb] [flags] [sketch flags]

INPUT is a wget mirror folder, .warc[.gz] (.arc, .wacz), .jsonl[.gz] or URL list, read as a stream:
pages are sketched on all cores while reading goes on, and only the sketches are kept. Prints one record per
cluster of two or more pages, clusters in input order of their representative:
  cluster, representative, size, chained,
  members: [{url, kind, via, resemblance, containment, contains, shared, hits, depth,
             toRepresentative, chained}]   representative first, then input order
kind is how a member joined: representative | identical (same bytes) | lexical (same canonical
text) | shingle (same sketch) | near (resemblance, or containment, over the policy).
via is the member it joined through; resemblance, containment (this page in via) and contains
(via in this page) are for that pair: estimates, or exact values for pairs checked exactly;
shared counts sketch values in common and hits the keys the candidate step matched;
toRepresentative is the estimated resemblance to the representative; chained marks members in
the cluster only through a chain of links. With --content main (the default) each member also
says which share of its page was template and how many shingles its content had (template,
contentShingles); pages with too little content after the template are counted on stderr and
not clustered.

Flags:
${POLICY_USAGE}
${METHOD_USAGE}
  --representative R    first (input order; default) | earliest | newest (crawl date) | most-linked
${PIPELINE_USAGE}

${CONTENT_USAGE}

${SKETCH_USAGE}`,
  options: { ...DUPS_FLAGS, representative: { type: 'string' } },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const rule = enumFlag(ctx.values, 'representative', 'first', ['first', 'earliest', 'newest', 'most-linked'] as const);
    const options = findOptionsOf(ctx.values, rule);
    const started = performance.now();
    const found = await runNearDuplicates(ctx, ctx.positionals, options);
    const c = found.nd.clusters, set = found.crawl.set;
    found.close();
    const out = createRecordWriter(ctx.out, format);
    for (let i = 0; i < c.count; i++) out.write(withContentEvidence(clusterRecord(c, i, found.crawl.urls), c.membersOf(i), set));
    out.end();
    reportContent(ctx, options.content, set, found.crawl.urls, found.crawl.templates);
    if (!ctx.quiet) ctx.err.write(dupsSummary(found, (performance.now() - started) / 1000) + '\n');
    return 0;
  },
};
