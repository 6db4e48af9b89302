import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { optionError, ResembleError } from '../../errors.js';
import type { ReadError } from '../../graph/document.js';
import { init } from '../../index.js';
import { ALGORITHMS, mirrorFigures, parseHostsFile, parseTruthFile } from '../../mirrors/index.js';
import { findMirrors, MIRROR_DEFAULTS as D, type FindMirrorsOptions, type MirrorEvaluation, type MirrorSummary } from '../../mirrors/entry.js';
import { plotSeries } from '../../report/plot.js';
import { enumFlag, formatOf, intFlag, numberFlag, stringOf, READER_FLAGS } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { cliReadOptions, PHENOMENA_FLAGS, PHENOMENA_USAGE, reportPhenomena, errorLine, pipelineOf, readSummary, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
import { checkOutput, createRecordWriter, round4, writeFileAtomic } from '../output.js';

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new ResembleError('E_IO', `cannot read the ${what} file ${path}: ${(e as Error).message}`, { path });
  }
}

function report(ctx: CommandContext, errors: readonly ReadError[]): void {
  if (ctx.quiet) return;
  for (const e of errors.slice(0, 50)) ctx.err.write(errorLine(e) + '\n');
  if (errors.length > 50) ctx.err.write(`(${errors.length - 50} more input errors not shown)\n`);
}

/**
 * `resemble mirrors`: ranked pairs of mirrored hosts from URLs, IPs and links (Bharat, Broder,
 * Dean, Henzinger), optionally confirmed by the mirroring test against the crawl's own pages,
 * and evaluated against a truth file or the pooled verdicts with the paper's Figures 1, 3, 4.
 */
export const command: Command = {
  name: 'mirrors',
  summary: 'rank pairs of mirrored hosts from URLs, IP addresses and links; verify and evaluate them',
  usage: `Usage: resemble mirrors INPUT... [--algorithm NAME] [--top N] [--no-verify] [--ips FILE]
                        [--min-urls N] [--truth FILE] [--plots DIR] [--seed N] [--link-urls]
                        [--threshold X] [--agreement X] [--sample-paths N] [--min-paths N]
                        [--min-share X] [--min-pages N] [--confidence X] [--infer]

INPUT is a wget mirror folder, .warc[.gz] (.arc, .wacz), .jsonl[.gz] or URL list (one URL per
line, optional IP column). Prints one record per ranked host pair, best first:
  {rank, a, b, score, algorithms, mirror, relation, extent?, evidence}   (version 2)
algorithms lists the rankings that proposed the pair; relation is the mirroring test's verdict
(mirror, copied pages, not mirror, undetermined; null with --no-verify or an input of URLs
only), mirror the same as true (a mirror, extent full or partial), false or null; evidence says why (shared terms, IP cluster, tested links, votes, and for
hybrid and the mirroring test the prefix alignments
compared: /docs/3.11/ on a ↔ /python/3.11/ on b, aligned pages, compared, highly similar).

The mirroring test needs no root page: it aligns the two hosts' paths (the same paths, or one
prefix standing for another: /x/y/ on a ↔ /z/ on b, found from the path suffixes they share),
compares up to --sample-paths aligned pages per alignment (8 alignments at most) and calls the
pair a mirror when, under some alignment, at least --agreement of the compared pages have
resemblance ≥ --threshold; not mirror when every alignment with --min-paths compared pages falls
short; undetermined (with the reason and counts) when no alignment had that many comparable pages.

Flags:
${PHENOMENA_USAGE}
  --algorithm NAME      ${ALGORITHMS.join('|')} (default hybrid; combined for an input of
                        URLs only)
                        ip4, ip3: same IP / same subnet (IPv4 /24, IPv6 /64); hosts, paths, prefix,
                        shingles: term vectors of host names and paths; conn: paths filtered by links;
                        hconn1, hconn2: linked-to hosts; combined: votes of ip4, prefix, hconn2, paths,
                        hosts; hybrid: combined joined with the pages' sketches (needs page content)
  --top N               pairs printed (and verified), 0 for all (default 1000)
  --no-verify           rank only, without the mirroring test (mirror is then null). By default the
                        test runs on the printed pairs when the input holds page content (--verify
                        asks for it explicitly: an input of URLs only is then an error)
  --ips FILE            host → IP lines ("host ip..." or /etc/hosts style "ip host..."); added to
                        the IPs the input records
  --min-urls N          hosts with fewer distinct URLs are left out (default ${D.minUrls}; the paper used 100)
  --truth FILE          mirror pairs, one "hostA hostB" per line: evaluate every algorithm against
                        them and print precision and relative recall on stderr
  --plots DIR           write the paper's Figures 1, 3 and 4 (SVG) and evaluation.json to DIR, from
                        --truth, or else from the mirroring test pooled over every algorithm's top N
  --seed N              seed of every random choice (default ${D.seed})
  --link-urls           also count URLs seen only as link targets (the paper's input did)
  --threshold X         resemblance at which two pages are highly similar (default 0.7, from curves
                        on two realistic crawls: docs/mirrors.md; the paper used 0.5 on pages with
                        dynamic parts, which lets a distant release of a manual pass as a mirror)
  --agreement X         share of compared pages highly similar for a mirror (default 0.75, the
                        paper's m for conn)
  --sample-paths N      aligned pages compared per alignment (default 20); cost: 2 page reads each
  --min-paths N         compared pages below which an alignment is undetermined (default 3)
  --min-share X         share of one host's pages, and bytes, the aligned pages must hold for a
                        mirror (default 0.1); fewer are "copied pages" (docs/mirrors.md)
  --confidence X        confidence at which most aligned pages must be highly similar, from the
                        sample (default 0.95)
  --infer               with --verify, skip pairs whose verdict follows from earlier ones by
                        transitivity (the paper's pooling; wrong for hosts holding several collections)
  --workers N           threads that sketch pages while the input is read (default: the available
                        cores); the output is the same for any N

The input is read as a stream: only URLs, IPs and links are kept, and, when the ranking or the
mirroring test needs page content (hybrid, --verify, --plots without --truth), each page's sketch,
made as it is read; the mirroring test compares those sketches.
`,
  options: {
    ...READER_FLAGS,
    algorithm: { type: 'string' },
    top: { type: 'string' },
    verify: { type: 'boolean' },
    'no-verify': { type: 'boolean' },
    ips: { type: 'string' },
    'min-urls': { type: 'string' },
    truth: { type: 'string' },
    plots: { type: 'string' },
    seed: { type: 'string' },
    'link-urls': { type: 'boolean' },
    ...PHENOMENA_FLAGS,
    threshold: { type: 'string' },
    agreement: { type: 'string' },
    'sample-paths': { type: 'string' },
    'min-paths': { type: 'string' },
    'min-share': { type: 'string' },
    'min-pages': { type: 'string' },
    confidence: { type: 'string' },
    infer: { type: 'boolean' },
    workers: { type: 'string' },
  },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const v = ctx.values;
    if (v.verify === true && v['no-verify'] === true) throw optionError('--verify', 'one of --verify and --no-verify', 'both');
    const options: FindMirrorsOptions = {
      algorithm: enumFlag(v, 'algorithm', D.algorithm, ALGORITHMS),
      top: intFlag(v, 'top', D.top, 0, 2 ** 31),
      minUrls: intFlag(v, 'min-urls', D.minUrls, 1, 2 ** 31),
      seed: intFlag(v, 'seed', D.seed, 0, 2 ** 32 - 1),
      threshold: numberFlag(v, 'threshold', D.threshold, 0, 1),
      agreement: numberFlag(v, 'agreement', D.agreement, 0.01, 1),
      samplePaths: intFlag(v, 'sample-paths', D.samplePaths, 1, 100000),
      minPaths: intFlag(v, 'min-paths', D.minPaths, 1, 100000),
      minShare: numberFlag(v, 'min-share', D.minShare, 0, 1),
      minPages: intFlag(v, 'min-pages', D.minPages, 1, 2 ** 31),
      confidence: numberFlag(v, 'confidence', D.confidence, 0.5, 0.9999),
      infer: v.infer === true,
      linkUrls: v['link-urls'] === true,
    };
    // an explicit --verify keeps the test on an input of URLs only (it then fails there); the default leaves it off
    if (v['no-verify'] === true) options.verify = false;
    else if (v.verify === true) options.verify = true;
    if (options.infer && options.verify === false) throw optionError('--infer', 'to come with the mirroring test (not --no-verify)', true);
    if (v.algorithm === undefined) delete options.algorithm;
    const ipsPath = stringOf(v, 'ips');
    const truthPath = stringOf(v, 'truth');
    const plotDir = stringOf(v, 'plots');
    if (plotDir !== undefined) checkOutput(plotDir, ctx.positionals, '--plots');
    const hostsFile = ipsPath === undefined ? undefined : parseHostsFile(readText(ipsPath, '--ips'), ipsPath);
    const truthFile = truthPath === undefined ? undefined : parseTruthFile(readText(truthPath, '--truth'), truthPath);
    if (hostsFile) options.hosts = hostsFile;
    if (truthFile) options.truth = truthFile.pairs;
    options.evaluate = truthPath !== undefined || plotDir !== undefined;
    const { workers } = pipelineOf({ workers: v.workers });
    if (workers !== undefined) options.workers = workers;
    requireInputs(ctx.positionals);
    await init();
    const display = await startPipelineProgress(ctx, ctx.positionals);
    let found;
    try {
      found = await findMirrors(ctx.positionals.length === 1 ? ctx.positionals[0] : { paths: ctx.positionals }, { ...options, ...cliReadOptions(ctx), onProgress: (p) => display.read(p) });
    } finally {
      display.stop();
    }
    const s = found.summary;
    if (!ctx.quiet) ctx.err.write(readSummary({ urls: { length: s.pages } as string[], bytes: s.bytes, errors: { length: s.errors } as unknown[], skipped: s.skipped }) + '\n');
    reportPhenomena(ctx, found.phenomena);
    requireDocuments(s.pages, s.errors, ctx.positionals);
    report(ctx, [...(hostsFile?.errors ?? []), ...(truthFile?.errors ?? [])]);
    if (found.evaluation) await printEvaluation(ctx, found.evaluation, plotDir);
    const out = createRecordWriter(ctx.out, format);
    for (const r of found.records) out.write(r);
    out.end();
    if (!ctx.quiet) {
      ctx.err.write(mirrorsSummary(s) + '\n');
    }
    return 0;
  },
};

/** Takes a mirrors run's summary; returns its closing line, in plain words. */
export function mirrorsSummary(s: Pick<MirrorSummary, 'algorithm' | 'hosts' | 'droppedHosts' | 'minUrls' | 'rankedPairs' | 'written' | 'verdicts'>): string {
  const verified = s.verdicts
    ? `; comparing their pages found ${s.verdicts.mirror} ${s.verdicts.mirror === 1 ? 'mirror' : 'mirrors'}, ${s.verdicts.notMirror} not ${s.verdicts.notMirror === 1 ? 'a mirror' : 'mirrors'}, ${s.verdicts.undetermined} undecided`
    : '';
  return `mirrors (${s.algorithm} ranking): ${s.hosts} hosts compared (${s.droppedHosts} more with fewer than ${s.minUrls} URLs left out), `
    + `${s.rankedPairs} host pairs ranked, ${s.written} written${verified}`;
}

/** Prints the evaluation's table on stderr and, with --plots, writes Figures 1, 3, 4 and evaluation.json. */
async function printEvaluation(ctx: CommandContext, e: MirrorEvaluation, plotDir: string | undefined): Promise<void> {
  const { curves, total } = e;
  if (!ctx.quiet) {
    if (e.unknownHosts.length > 0) ctx.err.write(`truth: ${e.unknownHosts.length} hosts not among the ranked hosts (e.g. ${e.unknownHosts.slice(0, 3).join(', ')})\n`);
    ctx.err.write(`evaluation against ${e.against === 'truth' ? 'the truth file' : 'pooled mirroring-test verdicts'}: ${total} mirror pairs found by the union of all rankings\n`);
    ctx.err.write('algorithm   ranked  precision@end  relative recall@end  recall@end\n');
    for (const c of curves) {
      const n = c.precision.length;
      const last = (x: Float64Array) => (n ? round4(x[n - 1]).toFixed(4) : '-');
      ctx.err.write(`${c.algorithm.padEnd(10)} ${String(n).padStart(7)}  ${last(c.precision).padStart(13)}  ${last(c.relativeRecall).padStart(19)}  ${last(c.recall).padStart(10)}\n`);
    }
  }
  if (plotDir === undefined) return;
  mkdirSync(plotDir, { recursive: true });
  for (const f of mirrorFigures(curves)) writeFileAtomic(join(plotDir, f.file), await plotSeries(f.series, f.options));
  const summary = curves.map((c) => {
    const n = c.precision.length;
    return { algorithm: c.algorithm, ranked: n, found: n ? c.found[n - 1] : 0, precision: n ? round4(c.precision[n - 1]) : null, relativeRecall: n ? round4(c.relativeRecall[n - 1]) : null, recall: n ? round4(c.recall[n - 1]) : null };
  });
  writeFileAtomic(join(plotDir, 'evaluation.json'), JSON.stringify({ total, algorithms: summary }, null, 2) + '\n');
  if (!ctx.quiet) ctx.err.write(`wrote Figures 1, 3, 4 and evaluation.json to ${plotDir}\n`);
}
