import { optionError } from '../../errors.js';
import { init } from '../../index.js';
import { CONTENT_FLAGS, CONTENT_USAGE, contentOptionsOf, printContent, type ContentFlags } from '../content.js';
import { NEAR_DUPLICATE_DEFAULTS as D } from '../../cluster/defaults.js';
import { findNearDuplicates, type NearDuplicateRunOptions, type NearDuplicateSummary } from '../../cluster/find.js';
import type { PipelineEvent } from '../../cluster/stream.js';
import type { RepresentativeRule } from '../../cluster/near-duplicates.js';
import { enumFlag, formatOf, intFlag, numberFlag, SKETCH_FLAGS, SKETCH_USAGE, sketchOptionsOf, stringOf, READER_FLAGS, readerOptionsOf } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { errorPrinter, PIPELINE_FLAGS, PIPELINE_USAGE, pipelineOf, rateText, readSummary, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
import { createRecordWriter } from '../output.js';
import { count } from '../progress.js';
import { dupsFromParquet } from '../from-parquet.js';

/** Flags shared by dups and index (the clustering policy). */
export const POLICY_FLAGS = {
  threshold: { type: 'string' },
  containment: { type: 'string' },
  'common-cap': { type: 'string' },
  equivalence: { type: 'string' },
} as const;

/** Help text for POLICY_FLAGS. */
export const POLICY_USAGE = `  --threshold R         resemblance at which two pages join a cluster, 0..1 (default ${D.threshold})
  --containment C       also join when either page's containment in the other reaches C (default: off)
  --common-cap N        ignore shingles found in more than N pages (default ${D.commonCap})
  --equivalence LEVEL   none | identical | lexical | shingle: equivalent pages set aside before
                        clustering and added back with that kind (default ${D.equivalence}: all three)`;

/** Takes parsed values; returns the policy options they set. */
export function policyOf(values: CommandContext['values']): { threshold: number; containment?: number; commonCap: number; equivalence: 'none' | 'identical' | 'lexical' | 'shingle' } {
  return {
    threshold: numberFlag(values, 'threshold', D.threshold, 0, 1),
    containment: values.containment === undefined ? undefined : numberFlag(values, 'containment', 0, 0, 1),
    commonCap: intFlag(values, 'common-cap', D.commonCap, 1, 0x7fffffff),
    equivalence: enumFlag(values, 'equivalence', D.equivalence, ['none', 'identical', 'lexical', 'shingle'] as const),
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
                        exact resemblance), and no pair is checked exactly (below); --verify is the
                        default, checking them
  --exact-band Z        pairs whose estimate lies within Z standard errors of the threshold (0.044 at
                        0.5 with s = 128) and that would join two clusters are checked exactly: their
                        pages are read back and shingled in full (default 3; 0 checks none): from
                        their records in plain JSONL and WARC files, .warc.gz files of one gzip member
                        per record and folders; from a temporary copy written while reading for stdin
                        and other gzip files. A page changed on disk meanwhile is reported, not joined
  --k N                 lsh: signature length (default 128)
  --super-shingle N     super-shingles: sketch values per super-shingle (default 2)`;

/** The library options of a near-duplicate command, with the content flags they came from. */
export interface NearDuplicateFlags {
  options: NearDuplicateRunOptions;
  content: ContentFlags;
}

/** Takes parsed values and the representative rule; returns the options of findNearDuplicates / dedup they set (flags validated). */
export function findOptionsOf(values: CommandContext['values'], rule: RepresentativeRule): NearDuplicateFlags {
  const policy = policyOf(values);
  const method = enumFlag(values, 'method', D.method, ['pairs', 'super-shingles', 'lsh'] as const);
  const sketch = sketchOptionsOf(values);
  const options: NearDuplicateRunOptions = { ...policy, method, representative: rule, sketch };
  if (method === 'lsh') options.k = intFlag(values, 'k', D.k, 1, 4096);
  else if (values.k !== undefined) throw optionError('--k', 'no value unless --method lsh', values.k);
  if (method === 'super-shingles') options.superShingle = intFlag(values, 'super-shingle', D.superShingle, 1, 64);
  else if (values['super-shingle'] !== undefined) throw optionError('--super-shingle', 'no value unless --method super-shingles', values['super-shingle']);
  const content = contentOptionsOf(values);
  Object.assign(sketch, content.sketch);
  if (content.template) options.templates = content.template;
  if (values.verify && values['no-verify']) throw optionError('--verify', 'one of --verify and --no-verify', 'both');
  options.verify = values['no-verify'] !== true;
  const prefix = stringOf(values, 'prefix');
  if (prefix !== undefined && prefix !== 'auto') {
    if (method !== 'pairs') throw optionError('--prefix', 'no value unless --method pairs', prefix);
    options.prefix = intFlag(values, 'prefix', 0, 0, 4096);
  }
  if (values['prefix-hits'] !== undefined) {
    if (method !== 'pairs') throw optionError('--prefix-hits', 'no value unless --method pairs', values['prefix-hits']);
    options.prefixHits = intFlag(values, 'prefix-hits', D.prefixHits, 1, 16);
  }
  if (!options.verify && values['exact-band'] !== undefined) throw optionError('--exact-band', 'no value with --no-verify', values['exact-band']);
  if (options.verify) options.exactBand = numberFlag(values, 'exact-band', D.exactBand, 0, 10);
  const { workers, engine, engineOptions } = pipelineOf(values, ['memory', 'duckdb', 'spark']);
  if (workers !== undefined) options.workers = workers;
  options.engine = engine;
  options.engineOptions = engineOptions;
  return { options, content };
}

/** What the DuckDB engine's candidate step is doing, for the progress line. */
const ENGINE_STEPS: Record<string, string> = {
  common: 'counting the sketch values on too many pages (sketches on disk)…',
  load: 'writing each page\'s keys to DuckDB…',
  cap: 'DuckDB: dropping keys on too many pages…',
  pairs: 'DuckDB: counting pairs of pages sharing keys…',
  read: 'estimating the candidate pairs…',
};

/** Takes the command context and its options; returns them with the CLI's callbacks: read errors and warnings on stderr, and the progress display's feed. */
export async function withCliCallbacks<O extends NearDuplicateRunOptions>(ctx: CommandContext, options: O): Promise<{ options: O; stop(): void }> {
  requireInputs(ctx.positionals);
  await init();
  const show = errorPrinter(ctx);
  const display = await startPipelineProgress(ctx, ctx.positionals);
  const onProgress = (e: PipelineEvent) => {
    if (e.stage === 'sketching') display.read(e.progress);
    else if (e.stage === 'candidates' && e.state === 'start') display.stage('candidates', 'pairs of pages sharing sketch values…');
    else if (e.stage === 'candidates' && e.state === 'step' && !e.done) display.stage('candidates', ENGINE_STEPS[e.detail] ?? `${e.detail}…`);
    else if (e.stage === 'exact') display.stage('exact checks', () => `${count(e.done)} pages shingled in full (pairs near the threshold)`);
  };
  return {
    options: {
      ...options, onError: show, onWarning: show, onProgress,
      read: {
        ...readerOptionsOf(ctx.values),
        // skips that would surprise (a link out of the folder, a file: URL) carry a message: shown like errors
        onSkip: (s) => { if (s.message !== undefined) show({ source: s.source, location: s.location, code: s.reason, message: s.message }); },
      },
    },
    stop: () => display.stop(),
  };
}

/** Takes the command context and a run's summary; prints the read summary line (unless quiet) and throws E_INPUT when nothing usable was read. */
export function reportRead(ctx: CommandContext, summary: NearDuplicateSummary | { pages: number; bytes: number; errors: number; skipped: Record<string, number> }): void {
  if (!ctx.quiet) ctx.err.write(readSummary({ urls: { length: summary.pages } as readonly string[], bytes: summary.bytes, errors: { length: summary.errors } as readonly unknown[], skipped: summary.skipped }) + '\n');
  requireDocuments(summary.pages, summary.errors, ctx.positionals);
}

/** Takes a count and a noun; returns `1 page`, `2 pages` (with thousands separators). */
export function plural(n: number, noun: string, many = `${noun}s`): string {
  return `${count(n)} ${n === 1 ? noun : many}`;
}

/** Takes a near-duplicate run's summary; returns the closing summary line, numbers with their meaning. */
export function dupsSummary(s: NearDuplicateSummary): string {
  const pages = s.pages;
  const parts = [
    `dups: ${plural(s.clusters, 'cluster')} of near-duplicates hold ${count(s.clusteredPages)} of ${plural(pages, 'page')} `
      + `(${count(s.copies)} of them copies with the same bytes or the same words)`,
    `${plural(s.candidatePairs, 'pair')} of pages sharing sketch values compared (${(s.candidatePairs / Math.max(1, pages)).toFixed(1)} per page), ${count(s.joinedPairs)} similar enough to join`
      + (s.nearPairs > 0 ? `; ${count(s.nearPairs)} close to the threshold ${s.exactPairs === s.nearPairs ? 'checked on their full shingle sets' : `(${count(s.exactPairs)} checked on their full shingle sets, the others already in one cluster)`}` : '')
      + (s.content && s.content.acrossChecked > 0 ? `; ${plural(s.content.acrossChecked, 'pair')} of pages cut against different layouts, one of them mostly layout, compared whole (${count(s.content.acrossJoined)} joined)` : ''),
  ];
  if (s.lsh) parts.push(`lsh ${s.lsh.bands} bands × ${s.lsh.rows} rows`);
  parts.push(`${rateText(s.bytes, s.seconds)}, ${plural(s.workers, 'worker')}`);
  return parts.join('; ');
}

/** `resemble dups`: near-duplicate clusters of a crawl, one JSON line per cluster with evidence. */
export const command: Command = {
  name: 'dups',
  summary: 'cluster near-duplicate pages (Broder et al.), with the evidence for every member',
  usage: `Usage: resemble dups INPUT... [--threshold 0.5] [--containment C] [--method pairs|super-shingles|lsh]
                    [--workers N] [--engine memory|duckdb|spark] [flags] [sketch flags]
       resemble dups --from-parquet DIR --engine duckdb|spark [--threshold 0.5] [flags]

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
not clustered. A page that is mostly template (share ≥ 1 − threshold) and a page cut by another
template join when, exactly, the whole pages' resemblance and the first page's content's
containment in the other's reach the threshold (docs/near-duplicates.md, "Pairs across templates").

Flags:
${POLICY_USAGE}
${METHOD_USAGE}
  --representative R    first (input order; default) | earliest | newest (crawl date) | most-linked
  --from-parquet DIR    cluster the Parquet shards \`sketch --parquet DIR [--shard I/N]\` wrote instead of
                        reading a crawl: checks the shards first (every one there once, one contract
                        version, one set of options), takes their sketch and content options, and
                        prints what dups INPUT --exact-band 0 prints (no exact checks: they read the
                        pages); needs --engine duckdb or spark, not most-linked
${PIPELINE_USAGE}

${CONTENT_USAGE}

${SKETCH_USAGE}`,
  options: { ...DUPS_FLAGS, representative: { type: 'string' }, 'from-parquet': { type: 'string' } },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const rule = enumFlag(ctx.values, 'representative', D.representative, ['first', 'earliest', 'newest', 'most-linked'] as const);
    const fromParquet = stringOf(ctx.values, 'from-parquet');
    const flags = findOptionsOf(ctx.values, rule);
    if (fromParquet !== undefined) return dupsFromParquet(ctx, fromParquet, clusterOptionsOf(flags.options), format);
    const input = ctx.positionals.length === 1 ? ctx.positionals[0] : { paths: ctx.positionals };
    const cli = await withCliCallbacks(ctx, flags.options);
    let found;
    try {
      found = await findNearDuplicates(input, cli.options);
    } finally {
      cli.stop();
    }
    reportRead(ctx, found.summary);
    const out = createRecordWriter(ctx.out, format);
    // the entry point's records are JSON-ready already
    for (const record of found.records) out.writePlain(record);
    out.end();
    printContent(ctx, flags.content, found.summary.content, found.thin);
    if (!ctx.quiet) ctx.err.write(dupsSummary(found.summary) + '\n');
    return 0;
  },
};

/** Takes a near-duplicate command's options; returns its clustering policy (for --from-parquet). */
function clusterOptionsOf(o: NearDuplicateRunOptions) {
  return { threshold: o.threshold, containment: o.containment, commonCap: o.commonCap, equivalence: o.equivalence, method: o.method, representative: o.representative,
    ...(o.method !== 'pairs' ? { verify: o.verify } : {}), ...(o.prefix !== undefined ? { prefix: o.prefix } : {}), ...(o.prefixHits !== undefined ? { prefixHits: o.prefixHits } : {}) };
}
