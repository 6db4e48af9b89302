import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReplicatedCollections } from '../../collections/find.js';
import { COLLECTION_DEFAULTS, findCollections, type CollectionReport, type CollectionSummary, type FindCollectionsOptions } from '../../collections/entry.js';
import { parseSimilarity } from '../../collections/similarity.js';
import { URL_RULE_DEFAULTS } from '../../collections/url-rules/learn.js';
import type { UrlRule } from '../../collections/url-rules/rules.js';
import { optionError, ResembleError } from '../../errors.js';
import { init } from '../../index.js';
import { plotSeries } from '../../report/plot.js';
import { enumFlag, formatOf, intFlag, numberFlag, READER_FLAGS, stringOf } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { cliReadOptions, PHENOMENA_FLAGS, PHENOMENA_USAGE, reportPhenomena, PIPELINE_FLAGS, pipelineUsage, pipelineOf, readSummary, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
import { checkOutput, createRecordWriter, writeFileAtomic } from '../output.js';

/** Takes the clusters; returns the paper's Figure 12 (cluster cardinality against collection size, log axes) as SVG. */
export function figure12(found: ReplicatedCollections): Promise<string> {
  const point = (c: { size: number; cardinality: number }) => ({ x: c.size, y: c.cardinality });
  return plotSeries(
    [
      { name: 'similar clusters', points: found.clusters.filter((c) => !c.noise).map(point) },
      { name: 'noise (small collections)', points: found.clusters.filter((c) => c.noise).map(point) },
    ],
    { title: 'Distribution of maximal clusters', x: 'collection size (pages)', y: 'cluster cardinality (copies)', logX: true, logY: true },
  );
}

/** Takes a URL rule; returns it in a line: what it rewrites, its support and precision. */
export function describeRule(r: UrlRule): string {
  const what = r.kind === 'param' ? `drop ?${r.name}=` : r.kind === 'path-param' ? `drop ;${r.name}=` : r.kind === 'index' ? `/${r.name} is /`
    : r.kind === 'https' ? 'https: is http:' : r.kind === 'www' ? 'www.HOST is HOST' : `${r.from} is ${r.to}`;
  return `${r.kind} ${what} (support ${r.support}, precision ${r.precision} of ${r.tested})`;
}

async function readLines(path: string | undefined): Promise<string[]> {
  let text: string;
  try {
    if (path !== undefined) text = await readFile(path, 'utf8');
    else {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      text = Buffer.concat(chunks).toString('utf8');
    }
  } catch (e) {
    throw new ResembleError('E_IO', `cannot read result URLs from ${path ?? 'stdin'}: ${(e as Error).message}`, { path });
  }
  return text.split(/\r?\n/);
}

/** Takes a collections run's summary; returns its closing line, in plain words. */
export function collectionsSummary(s: CollectionSummary): string {
  const of = (n: number, one: string, more: string) => `${n} ${n === 1 ? one : more}`;
  return `collections: ${of(s.clusters, 'set of linked pages is', 'sets of linked pages are')} copied on several hosts or folders (${s.clusters === 1 ? 'a similar cluster' : 'similar clusters'}), `
    + `${of(s.noise, 'smaller one', 'smaller ones')} (under ${s.minSize} pages) set aside as noise; `
    + `${of(s.pages, 'page', 'pages')} fell into ${of(s.trivialClusters, 'group', 'groups')} of similar pages (${s.splitClusters} split where a group held two pages of one copy); `
    + `${of(s.replicatedLinkGroups, 'link is', 'links are')} found in two copies or more; ${of(s.virtualPages, 'page', 'pages')} linked to but not crawled; `
    + `${of(s.joinedByPath, 'page', 'pages')} that no crawled page links to placed by ${s.joinedByPath === 1 ? 'its' : 'their'} path; `
    + `${of(s.breakPoints, 'page differs', 'pages differ')} between copies (break points); ${of(s.pagesWithoutText, 'page', 'pages')} without text`
    + `${s.droppedClusters ? `; ${of(s.droppedClusters, 'cluster', 'clusters')} dropped for breaking an invariant` : ''}`;
}

const pct = (x: number, of: number) => (of === 0 ? '0%' : `${((100 * x) / of).toFixed(1)}%`);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * `resemble collections`: replicated collections (Cho, Shivakumar, Garcia-Molina 2000) — similar
 * clusters grown over the link graph, the replica summary, the crawler avoid-list, search-result
 * roll-up and Figure 12.
 */
export const command: Command = {
  name: 'collections',
  summary: 'replicated collections: similar clusters grown over the link graph, replica summary, avoid-list, result roll-up',
  usage: `Usage: resemble collections INPUT... [--similarity SPEC] [--growth mixed|paper] [--min-size N]
                            [--replicas | --avoid [--keep POLICY] [--save FILE] [--rules FILE] | --rollup [--results FILE]
                             | --break-points] [--plots DIR] [flags]

Finds hyperlinked collections of pages replicated on several hosts (or under several prefixes of
one host). Similar pages form trivial clusters; links that at least two copies hold join pages
into collections, one per copy, each on one host; copies sharing most of their pages form a
similar cluster, whose columns are the pages two or more copies hold. Full copies come out at full
size; partial and older copies join at the pages they share (null elsewhere). Writes one record
per similar cluster, largest cardinality first, then largest size: {"cardinality", "size",
"complete", "noise", "similar", "collections": [{"host", "prefix", "root", "held", "extent",
"pages", "externalInLinks"}]}; page i of every collection are copies of each other, "prefix" is
the URL directory holding the collection, "extent" the crawled pages under it. Every cluster is
checked before it is written: collections disjoint, each link-connected on one host, Definition 5
between every two (a page where it fails is taken out).

Flags:
${PHENOMENA_USAGE}
  --similarity SPEC     page similarity (default ${COLLECTION_DEFAULTS.similarity}):
                          windows:N:R       share ≥ R of the larger page's windows of N text lines
                          chunks:N:T        share ≥ T chunks of N text lines (the paper: 4:15, 2:25)
                          chunks:sentence:T share ≥ T sentences
                          chunks:doc        identical text
                          sketch:R          estimated resemblance ≥ R (shingle sketches, 0 < R ≤ 1)
  --growth MODE         mixed (default): clusters of full, partial and older copies together;
                        paper: Algorithm 3.1 as published (exact merge condition |Ri| = s = d = |Rj|)
  --min-size N          clusters whose collections have fewer pages are noise: left out of the
                        output, the replica summary and the avoid-list (default ${COLLECTION_DEFAULTS.minSize}, as the paper)
  --min-share R         copies share at least R of the smaller one's crawled pages (default ${COLLECTION_DEFAULTS.minShare})
  --replicas            write the replica summary instead: one record per pair of collections with
                        pages in common: {"cluster", "a", "b" (host, prefix, root, held, extent),
                        "common", "coverageA", "coverageB", "identical", "resemblance",
                        "relation": exact|partial|near|lagging}
  --avoid               write the crawler avoid-list instead: {"kind": host|prefix|url, "value",
                        "pages", "bytes", "keep", "keepPrefix", "redundant", "lost", "relation"};
                        a prefix or host rule also skips the URLs not crawled yet under it;
                        redundancy before/after on stderr
  --keep POLICY         the copy --avoid keeps per cluster: inlinks (default: most links from other
                        hosts, then most pages), first (first crawled), newest (latest fetch dates; WARC and JSONL
                        inputs carry them), host:NAME (the copy on that host)
  --min-coverage R      a prefix rule needs R of the crawled pages under it to have a kept copy
                        (default 0.9); --rollup places uncrawled result URLs under such prefixes
  --save FILE           with --avoid, also write the avoid-list as a versioned JSON document
                        (AvoidList.load reads it, and the JSON lines of --avoid)
  --rules FILE          with --avoid, also learn URL rewrite rules from the duplicate clusters
                        (session and tracking parameters, index files, https, www., mirror
                        prefixes; each with its support and precision) and write them as a
                        versioned JSON document (UrlRules.load reads it); listed on stderr
  --rule-support N      a rule explains at least N pairs of duplicate URLs (default 2)
  --rule-precision R    and at least R of the crawled URLs it joins are duplicates (default 0.95)
  --rollup              read ranked result URLs from stdin (one a line) and write them rolled up:
                        one entry per collection, with the other results of that collection and
                        the replicas of the collection (Collection and Replica links)
  --results FILE        read the result URLs of --rollup from FILE instead of stdin
  --break-points        write the break points instead: pages whose content differs between copies
                        and so split a collection (Figure 3(c)), with the clusters on either side
  --plots DIR           also draw Figure 12 (DIR/figure12.svg): cluster cardinality against collection size, log axes
${pipelineUsage([
  'pages sharing chunks (or sketch values) paired',
  'as SQL on embedded DuckDB under --memory-limit, spilling to --temp-dir',
  '(needs @duckdb/node-api): the same clusters, for crawls whose pairs do not',
  'fit in memory',
], 'threads that sketch while reading (sketch:R)', [
  'the same pairs counted as Spark SQL (the cap and pairs templates); the',
  'link summary and the growing of collections stay here, in memory',
])}

The input is read as a stream: each batch of pages is cut into chunks (or sketched) and only the
fingerprints, URLs, sizes, dates and links are kept.`,
  options: {
    ...READER_FLAGS,
    ...PHENOMENA_FLAGS,
    similarity: { type: 'string' },
    growth: { type: 'string' },
    'min-size': { type: 'string' },
    ...PIPELINE_FLAGS,
    'min-share': { type: 'string' },
    replicas: { type: 'boolean' },
    avoid: { type: 'boolean' },
    keep: { type: 'string' },
    'min-coverage': { type: 'string' },
    save: { type: 'string' },
    rules: { type: 'string' },
    'rule-support': { type: 'string' },
    'rule-precision': { type: 'string' },
    rollup: { type: 'boolean' },
    results: { type: 'string' },
    'break-points': { type: 'boolean' },
    plots: { type: 'string' },
    // Flags of earlier versions, rejected with what replaced them.
    extended: { type: 'boolean' },
    'single-site': { type: 'boolean' },
  },
  async run(ctx: CommandContext) {
    const v = ctx.values;
    if (v.extended !== undefined) throw new ResembleError('E_OPTION', '--extended is gone: partial and older copies always join their cluster at the pages they share (--growth paper is the exact condition)', { option: '--extended' });
    if (v['single-site'] !== undefined) throw new ResembleError('E_OPTION', '--single-site is gone: a collection is always on one host', { option: '--single-site' });
    const format = formatOf(v);
    const D = COLLECTION_DEFAULTS;
    const results = stringOf(v, 'results');
    const save = stringOf(v, 'save');
    const rollup = v.rollup === true || results !== undefined;
    const modes = [v.replicas === true && '--replicas', v.avoid === true && '--avoid', rollup && '--rollup', v['break-points'] === true && '--break-points'].filter(Boolean);
    if (modes.length > 1) throw new ResembleError('E_OPTION', `expected one of --replicas, --avoid, --rollup and --break-points, got ${modes.join(' and ')}`, { option: modes[0] });
    const rulesFile = stringOf(v, 'rules');
    const avoidOnly = [v.keep !== undefined && '--keep', save !== undefined && '--save', rulesFile !== undefined && '--rules', v['rule-support'] !== undefined && '--rule-support', v['rule-precision'] !== undefined && '--rule-precision'].filter((x): x is string => typeof x === 'string');
    if (v.avoid !== true && avoidOnly.length) throw new ResembleError('E_OPTION', `${avoidOnly[0]} goes with --avoid`, { option: avoidOnly[0] });
    if (rulesFile === undefined && (v['rule-support'] !== undefined || v['rule-precision'] !== undefined)) throw new ResembleError('E_OPTION', `${v['rule-support'] !== undefined ? '--rule-support' : '--rule-precision'} goes with --rules`, { option: '--rules' });
    const report: CollectionReport = v.replicas === true ? 'replicas' : v.avoid === true ? 'avoid' : rollup ? 'rollup' : v['break-points'] === true ? 'break-points' : 'clusters';
    const keep = stringOf(v, 'keep', D.keep)!;
    if (!['inlinks', 'first', 'newest'].includes(keep) && !(keep.startsWith('host:') && keep.length > 5)) throw optionError('--keep', 'inlinks, first, newest or host:NAME', keep);
    const options: FindCollectionsOptions = {
      similarity: parseSimilarity(stringOf(v, 'similarity', D.similarity)),
      growth: enumFlag(v, 'growth', D.growth, ['mixed', 'paper'] as const),
      minSize: intFlag(v, 'min-size', D.minSize, 1, 2 ** 31),
      minShare: numberFlag(v, 'min-share', D.minShare, 0, 1),
      minCoverage: numberFlag(v, 'min-coverage', D.minCoverage, 0, 1),
      report, ...(report === 'avoid' ? { keep } : {}),
      ...(rulesFile !== undefined ? { rules: { minSupport: intFlag(v, 'rule-support', URL_RULE_DEFAULTS.minSupport, 1, 2 ** 31), minPrecision: numberFlag(v, 'rule-precision', URL_RULE_DEFAULTS.minPrecision, 0, 1) } } : {}),
    };
    const plots = stringOf(v, 'plots');
    if (plots !== undefined) checkOutput(plots, ctx.positionals, '--plots');
    if (save !== undefined) checkOutput(save, ctx.positionals, '--save');
    if (rulesFile !== undefined) checkOutput(rulesFile, ctx.positionals, '--rules');
    const { workers, engine, engineOptions } = pipelineOf(v, ['memory', 'duckdb', 'spark']);
    Object.assign(options, { engine, engineOptions, ...(workers !== undefined ? { workers } : {}) });
    requireInputs(ctx.positionals);
    if (rollup) options.results = await readLines(results);
    await init();
    const display = await startPipelineProgress(ctx, ctx.positionals);
    let found;
    try {
      found = await findCollections(ctx.positionals.length === 1 ? ctx.positionals[0] : { paths: ctx.positionals }, { ...options, ...cliReadOptions(ctx), onProgress: (p) => display.read(p) });
    } finally {
      display.stop();
    }
    const s = found.summary;
    if (!ctx.quiet) ctx.err.write(readSummary({ urls: { length: s.pages } as string[], bytes: s.bytes, errors: { length: s.errors } as unknown[], skipped: s.skipped }) + '\n');
    reportPhenomena(ctx, found.phenomena);
    requireDocuments(s.pages, s.errors, ctx.positionals);
    // CSV: a row per copy of a similar cluster, per replica of a rolled-up result
    const writer = createRecordWriter(ctx.out, format, { members: report === 'rollup' ? ['replicas'] : ['collections'] });
    if (s.rollup && !ctx.quiet) for (const e of s.rollup.errors) ctx.err.write(`result ${e.rank + 1}: ${e.message} (skipped)\n`);
    for (const r of found.records) writer.write(r);
    if (save !== undefined && found.avoidList) writeFileAtomic(save, found.avoidList.save());
    if (rulesFile !== undefined && found.urlRules) {
      writeFileAtomic(rulesFile, found.urlRules.save());
      if (!ctx.quiet) {
        ctx.err.write(`url rules: ${found.urlRules.rules.length} learnt (${rulesFile})\n`);
        for (const r of found.urlRules.rules) ctx.err.write(`  ${describeRule(r)}\n`);
      }
    }
    if (s.avoid && !ctx.quiet) {
      const r = s.avoid;
      ctx.err.write(`avoid-list: ${r.entries} entries tell a crawler to skip ${r.skippedPages} of ${r.pages} pages (${mb(r.savedBytes)} of ${mb(r.totalBytes)}; ${r.lostPages} of them with no copy kept); `
        + `pages that have a similar page: ${pct(r.similarPages, r.pages)} of the crawl before, ${pct(r.similarPagesAfter, r.pages - r.skippedPages)} after\n`);
    }
    if (s.rollup && !ctx.quiet) ctx.err.write(`roll-up: ${s.rollup.results} search results rolled up into ${s.rollup.entries} entries (copies of one page shown once)\n`);
    writer.end();
    if (plots !== undefined) {
      mkdirSync(plots, { recursive: true });
      const file = join(plots, 'figure12.svg');
      writeFileAtomic(file, await figure12(found.collections));
      if (!ctx.quiet) ctx.err.write(`plots: ${file}\n`);
    }
    if (!ctx.quiet) {
      ctx.err.write(collectionsSummary(s) + '\n');
    }
    return 0;
  },
};
