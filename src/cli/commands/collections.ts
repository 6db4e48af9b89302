import { readFile } from 'node:fs/promises';
import { avoidList } from '../../collections/avoid.js';
import type { ReplicatedCollections } from '../../collections/find.js';
import { findCollections } from '../../collections/find.js';
import { clusterRecord } from '../../collections/report.js';
import { rollUp } from '../../collections/rollup.js';
import { DEFAULT_SIMILARITY, parseSimilarity } from '../../collections/similarity.js';
import { ResembleError } from '../../errors.js';
import { init } from '../../index.js';
import { readForCollections } from '../../pipeline/collections.js';
import { plotSeries } from '../../report/plot.js';
import { formatOf, intFlag, stringOf, READER_FLAGS } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { readOptionsFor, pipelineOf, readSummary, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
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
 * clusters grown over the link graph, the crawler avoid-list, search-result roll-up and Figure 12.
 */
export const command: Command = {
  name: 'collections',
  summary: 'replicated collections: similar clusters grown over the link graph, avoid-list, result roll-up',
  usage: `Usage: resemble collections INPUT... [--extended] [--similarity SPEC] [--single-site] [--min-size N]
                            [--avoid] [--rollup [--results FILE]] [--plot FILE.svg] [flags]

Finds hyperlinked collections of pages replicated on several hosts. Similar pages form trivial
clusters; trivial clusters whose pages link one-to-one (|Ri| = s = d = |Rj|) grow into similar
clusters of equal-sized collections, one per copy. Writes one record per similar cluster,
largest cardinality first, then largest size: {"cardinality", "size", "extended", "noise",
"similar", "collections": [{"host", "root", "pages", "externalInLinks"}]}; page i of every
collection are copies of each other, "root" is the entry page, "similar" says Definition 5 was
verified on the output.

Flags:
  --similarity SPEC     page similarity (default ${DEFAULT_SIMILARITY}):
                          chunks:N:T        share ≥ T chunks of N text lines (the paper: 4:15, 2:25)
                          chunks:sentence:T share ≥ T sentences
                          chunks:doc        identical text
                          sketch:R          estimated resemblance ≥ R (shingle sketches, 0 < R ≤ 1)
  --extended            also merge partial mirrors (|Ri| = s ≥ d = |Rj|): their missing pages are
                        shared with a full copy
  --single-site         only links within a host: every collection stays on one site
  --min-size N          clusters whose collections have fewer pages are noise: left out of the
                        output and of the avoid-list (default 10, as the paper; 1 keeps all)
  --avoid               write the crawler avoid-list instead: {"kind": host|prefix|url, "value",
                        "pages", "bytes", "keep"}, with the redundancy before/after on stderr
  --rollup              read ranked result URLs from stdin (one a line) and write them rolled up:
                        one entry per collection, with the other results of that collection and
                        the replicas of the collection (Collection and Replica links)
  --results FILE        read the result URLs of --rollup from FILE instead of stdin
  --break-points        write the break points instead: pages whose content differs between copies
                        and so split a collection (Figure 3(c)), with the clusters on either side
  --plot FILE.svg       also draw Figure 12: cluster cardinality against collection size, log axes
  --workers N           threads that sketch while the input is read (sketch:R; default: the available cores)

The input is read as a stream: each batch of pages is cut into chunks (or sketched) and only the
fingerprints, URLs and links are kept.`,
  options: {
    ...READER_FLAGS,
    similarity: { type: 'string' },
    extended: { type: 'boolean' },
    'single-site': { type: 'boolean' },
    'min-size': { type: 'string' },
    avoid: { type: 'boolean' },
    rollup: { type: 'boolean' },
    results: { type: 'string' },
    'break-points': { type: 'boolean' },
    plot: { type: 'string' },
    workers: { type: 'string' },
  },
  async run(ctx: CommandContext) {
    const v = ctx.values;
    const format = formatOf(v);
    const similarity = parseSimilarity(stringOf(v, 'similarity', DEFAULT_SIMILARITY));
    const minSize = intFlag(v, 'min-size', 10, 1, 2 ** 31);
    const results = stringOf(v, 'results');
    const rollup = v.rollup === true || results !== undefined;
    const modes = [v.avoid === true && '--avoid', rollup && '--rollup', v['break-points'] === true && '--break-points'].filter(Boolean);
    if (modes.length > 1) throw new ResembleError('E_OPTION', `expected one of --avoid, --rollup and --break-points, got ${modes.join(' and ')}`, { option: modes[0] });
    const plot = stringOf(v, 'plot');
    if (plot !== undefined) checkOutput(plot, ctx.positionals, '--plot');
    const { workers } = pipelineOf({ workers: v.workers });
    requireInputs(ctx.positionals);
    await init();
    const display = await startPipelineProgress(ctx, ctx.positionals);
    let read;
    try {
      read = await readForCollections(ctx.positionals, similarity, { workers, read: readOptionsFor(ctx), onProgress: (p) => display.read(p) });
    } finally {
      display.stop();
    }
    const { crawl, graph } = read;
    if (!ctx.quiet) ctx.err.write(readSummary(crawl) + '\n');
    requireDocuments(crawl.urls.length, crawl.errors.length, ctx.positionals);
    const found = { ...findCollections(graph, read.similar.trivial, { extended: v.extended === true, singleSite: v['single-site'] === true, minSize }), similarity: read.similar };
    const writer = createRecordWriter(ctx.out, format);
    const kept = found.clusters.filter((c) => !c.noise);
    if (v.avoid === true) {
      const list = avoidList(found, graph, { pageBytes: crawl.sizes });
      for (const e of list.entries) writer.write(e);
      const r = list.redundancy;
      if (!ctx.quiet) {
        ctx.err.write(`avoid-list: ${list.entries.length} entries skip ${r.skippedPages} of ${r.pages} pages (${mb(r.savedBytes)} of ${mb(r.totalBytes)}); `
          + `pages with a similar page: ${pct(r.similarPages, r.pages)} before, ${pct(r.similarPagesAfter, r.pages - r.skippedPages)} after\n`);
      }
    } else if (rollup) {
      const { entries, errors } = rollUp(await readLines(results), found, graph, { includeNoise: true });
      for (const e of errors) if (!ctx.quiet) ctx.err.write(`result ${e.rank + 1}: ${e.message} (skipped)\n`);
      for (const e of entries) writer.write(e);
      if (!ctx.quiet) ctx.err.write(`roll-up: ${entries.length} entries from ${entries.reduce((n, e) => n + 1 + e.collection.length + e.replicas.reduce((m, r) => m + r.results.length, 0), 0)} results\n`);
    } else if (v['break-points'] === true) {
      const side = (k: number) => {
        const c = found.clusters[k];
        return { cardinality: c.cardinality, size: c.size, root: graph.urls[c.pages[0]] };
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
      const s = found.similarity;
      ctx.err.write(`collections: ${kept.length} similar clusters (${found.clusters.length - kept.length} noise below ${minSize} pages) `
        + `from ${graph.size} pages in ${found.trivial.count} trivial clusters; ${found.stats.mergeEdges} merge edges, `
        + `${found.breakPoints.pages.length} break points, ${s.emptyPages} pages without text\n`);
    }
    return 0;
  },
};
