import { readFile } from 'node:fs/promises';
import { avoidList, type KeepPolicy } from '../../collections/avoid.js';
import type { ReplicatedCollections } from '../../collections/find.js';
import { findCollections } from '../../collections/find.js';
import { clusterRecord } from '../../collections/report.js';
import { rollUp } from '../../collections/rollup.js';
import { DEFAULT_SIMILARITY, parseSimilarity } from '../../collections/similarity.js';
import { replicaSummary } from '../../collections/summary.js';
import { optionError, ResembleError } from '../../errors.js';
import { init } from '../../index.js';
import { readForCollections } from '../../collections/stream.js';
import { plotSeries } from '../../report/plot.js';
import { enumFlag, formatOf, intFlag, numberFlag, READER_FLAGS, stringOf } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { PHENOMENA_FLAGS, PHENOMENA_USAGE, PIPELINE_FLAGS, pipelineUsage, pipelineOf, readOptionsFor, readSummary, reportPhenomena, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
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
                            [--replicas | --avoid [--keep POLICY] [--save FILE] | --rollup [--results FILE]
                             | --break-points] [--plot FILE.svg] [flags]

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
  --similarity SPEC     page similarity (default ${DEFAULT_SIMILARITY}):
                          windows:N:R       share ≥ R of the larger page's windows of N text lines
                          chunks:N:T        share ≥ T chunks of N text lines (the paper: 4:15, 2:25)
                          chunks:sentence:T share ≥ T sentences
                          chunks:doc        identical text
                          sketch:R          estimated resemblance ≥ R (shingle sketches, 0 < R ≤ 1)
  --growth MODE         mixed (default): clusters of full, partial and older copies together;
                        paper: Algorithm 3.1 as published (exact merge condition |Ri| = s = d = |Rj|)
  --min-size N          clusters whose collections have fewer pages are noise: left out of the
                        output, the replica summary and the avoid-list (default 10, as the paper)
  --min-share R         copies share at least R of the smaller one's crawled pages (default 0.5)
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
  --rollup              read ranked result URLs from stdin (one a line) and write them rolled up:
                        one entry per collection, with the other results of that collection and
                        the replicas of the collection (Collection and Replica links)
  --results FILE        read the result URLs of --rollup from FILE instead of stdin
  --break-points        write the break points instead: pages whose content differs between copies
                        and so split a collection (Figure 3(c)), with the clusters on either side
  --plot FILE.svg       also draw Figure 12: cluster cardinality against collection size, log axes
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
    rollup: { type: 'boolean' },
    results: { type: 'string' },
    'break-points': { type: 'boolean' },
    plot: { type: 'string' },
    // Flags of earlier versions, rejected with what replaced them.
    extended: { type: 'boolean' },
    'single-site': { type: 'boolean' },
  },
  async run(ctx: CommandContext) {
    const v = ctx.values;
    if (v.extended !== undefined) throw new ResembleError('E_OPTION', '--extended is gone: partial and older copies always join their cluster at the pages they share (--growth paper is the exact condition)', { option: '--extended' });
    if (v['single-site'] !== undefined) throw new ResembleError('E_OPTION', '--single-site is gone: a collection is always on one host', { option: '--single-site' });
    const format = formatOf(v);
    const similarity = parseSimilarity(stringOf(v, 'similarity', DEFAULT_SIMILARITY));
    const growth = enumFlag(v, 'growth', 'mixed', ['mixed', 'paper'] as const);
    const minSize = intFlag(v, 'min-size', 10, 1, 2 ** 31);
    const minShare = numberFlag(v, 'min-share', 0.5, 0, 1);
    const minCoverage = numberFlag(v, 'min-coverage', 0.9, 0, 1);
    const results = stringOf(v, 'results');
    const save = stringOf(v, 'save');
    const keep = stringOf(v, 'keep', 'inlinks')!;
    const rollup = v.rollup === true || results !== undefined;
    const modes = [v.replicas === true && '--replicas', v.avoid === true && '--avoid', rollup && '--rollup', v['break-points'] === true && '--break-points'].filter(Boolean);
    if (modes.length > 1) throw new ResembleError('E_OPTION', `expected one of --replicas, --avoid, --rollup and --break-points, got ${modes.join(' and ')}`, { option: modes[0] });
    if (v.avoid !== true && (v.keep !== undefined || save !== undefined)) throw new ResembleError('E_OPTION', `${v.keep !== undefined ? '--keep' : '--save'} goes with --avoid`, { option: v.keep !== undefined ? '--keep' : '--save' });
    if (!['inlinks', 'first', 'newest'].includes(keep) && !(keep.startsWith('host:') && keep.length > 5)) throw optionError('--keep', 'inlinks, first, newest or host:NAME', keep);
    const plot = stringOf(v, 'plot');
    if (plot !== undefined) checkOutput(plot, ctx.positionals, '--plot');
    if (save !== undefined) checkOutput(save, ctx.positionals, '--save');
    const { workers, engine, engineOptions } = pipelineOf(v, ['memory', 'duckdb', 'spark']);
    requireInputs(ctx.positionals);
    await init();
    const display = await startPipelineProgress(ctx, ctx.positionals);
    let read;
    try {
      read = await readForCollections(ctx.positionals, similarity, { workers, engine, engineOptions, read: readOptionsFor(ctx), onProgress: (p) => display.read(p) });
    } finally {
      display.stop();
    }
    const { crawl, graph } = read;
    if (!ctx.quiet) ctx.err.write(readSummary(crawl) + '\n');
    reportPhenomena(ctx, read.phenomena);
    requireDocuments(crawl.urls.length, crawl.errors.length, ctx.positionals);
    const found = { ...findCollections(graph, read.similar, { growth, minSize, minShare }), similarity: read.similar };
    const writer = createRecordWriter(ctx.out, format);
    const kept = found.clusters.filter((c) => !c.noise);
    if (v.replicas === true) {
      for (const r of replicaSummary(found, graph, found.similarity)) writer.write(r);
    } else if (v.avoid === true) {
      const list = avoidList(found, graph, {
        pageBytes: crawl.sizes, keep: keep as KeepPolicy, minCoverage,
        pageDates: keep === 'newest' ? Array.from(crawl.dates, (t) => (Number.isNaN(t) ? undefined : new Date(t).toISOString())) : undefined,
        resemblance: found.similarity.resemblance,
      });
      for (const e of list.entries) writer.write(e);
      if (save !== undefined) {
        writeFileAtomic(save, list.save());
      }
      const r = list.redundancy;
      if (!ctx.quiet) {
        ctx.err.write(`avoid-list: ${list.entries.length} entries skip ${r.skippedPages} of ${r.pages} pages (${mb(r.savedBytes)} of ${mb(r.totalBytes)}; ${r.lostPages} without a kept copy); `
          + `pages with a similar page: ${pct(r.similarPages, r.pages)} before, ${pct(r.similarPagesAfter, r.pages - r.skippedPages)} after\n`);
      }
    } else if (rollup) {
      const { entries, errors } = rollUp(await readLines(results), found, graph, { includeNoise: true, minCoverage });
      for (const e of errors) if (!ctx.quiet) ctx.err.write(`result ${e.rank + 1}: ${e.message} (skipped)\n`);
      for (const e of entries) writer.write(e);
      if (!ctx.quiet) ctx.err.write(`roll-up: ${entries.length} entries from ${entries.reduce((n, e) => n + 1 + e.collection.length + e.replicas.reduce((m, r) => m + r.results.length, 0), 0)} results\n`);
    } else if (v['break-points'] === true) {
      const side = (k: number) => {
        const c = found.clusters[k];
        return { cardinality: c.cardinality, size: c.size, root: graph.urls[c.roots[0]] };
      };
      const bp = found.breakPoints;
      for (let i = 0; i < bp.pages.length; i++) {
        writer.write({ url: graph.urls[bp.pages[i]], host: graph.hosts[graph.hostOf[bp.pages[i]]], from: side(bp.from[i]), to: side(bp.to[i]) });
      }
    } else {
      for (const c of kept) writer.write(clusterRecord(c, graph));
    }
    writer.end();
    if (plot !== undefined) {
      writeFileAtomic(plot, await figure12(found));
      if (!ctx.quiet) ctx.err.write(`plot: ${plot}\n`);
    }
    if (!ctx.quiet) {
      const s = found.similarity, st = found.stats;
      ctx.err.write(`collections: ${kept.length} similar clusters (${found.clusters.length - kept.length} noise below ${minSize} pages) `
        + `from ${graph.size} pages in ${found.trivial.count} trivial clusters (${st.splitClusters} split); ${st.replicatedEdges} replicated link groups, `
        + `${st.virtualPages} pages linked but not crawled, ${st.joinedByPath} pages no crawled page links joined by their path, `
        + `${found.breakPoints.pages.length} break points, ${s.emptyPages} pages without text`
        + `${st.dropped ? `; ${st.dropped} clusters dropped for breaking an invariant` : ''}\n`);
    }
    return 0;
  },
};
