// The mirrors command as it was before it streamed (it read the whole crawl with openCrawl): the reference
// its streaming version is compared with, output for output (test/stream/stream-commands.test.ts).
import { aliasRecords, mirrorRecord } from '../../../src/mirrors/record.js';
import { CrawlPhenomena, ROLE_PAGE } from '../../../src/io/crawl-phenomena.js';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { optionError, ResembleError } from '../../../src/errors.js';
import type { ReadError } from '../../../src/graph/document.js';
import { init } from '../../../src/index.js';
import {
  ALGORITHMS,
  crawlContentSource,
  crawlPageBytes,
  evaluateRankings,
  hostContentFromDocuments,
  HostSet,
  LinkTable,
  mirrorFigures,
  mirrorInputFromDocuments,
  MirrorPool,
  parseHostsFile,
  parseTruthFile,
  poolJudge,
  rankAll,
  truthJudge,
  verifyRanking,
  type AlgorithmName,
  type Judge,
  RULE_DEFAULTS,
  type MirroringResult,
  type MirrorRuleOptions,
  type Ranking,
} from '../../../src/mirrors/index.js';
import { DEFAULT_MIN_URLS } from '../../../src/mirrors/host-set.js';
import { DEFAULT_SEED } from '../../../src/mirrors/seed.js';
import { plotSeries } from '../../../src/report/plot.js';
import { enumFlag, formatOf, intFlag, numberFlag, stringOf, READER_FLAGS } from '../../../src/cli/args.js';
import type { Command, CommandContext } from '../../../src/cli/command.js';
import { errorLine, openCrawl, reportPhenomena } from '../../../src/cli/input.js';
import { checkOutput, createRecordWriter, round4, writeFileAtomic } from '../../../src/cli/output.js';
import { mirrorsSummary } from '../../../src/cli/commands/mirrors.js';

const NEEDS_LINKS: readonly AlgorithmName[] = ['conn', 'hconn1', 'hconn2', 'combined', 'hybrid'];

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
  usage: `Usage: resemble mirrors INPUT... [--algorithm NAME] [--top N] [--verify] [--ips FILE]
                        [--min-urls N] [--truth FILE] [--plot DIR] [--seed N] [--link-urls]
                        [--threshold X] [--agreement X] [--sample-paths N] [--min-paths N] [--infer]

INPUT is a wget mirror folder, .warc[.gz], .jsonl[.gz] or URL list (one URL per line, optional IP
column). Prints one record per ranked host pair, best first:
  {rank, a, b, score, algorithms, mirror, evidence}
algorithms lists the rankings that proposed the pair; mirror is the mirroring test's verdict with
--verify (true: mirror, false: not mirror, null: undetermined), else null; evidence says why
(shared terms, IP cluster, tested links, votes, and for hybrid and --verify the prefix alignments
compared: /docs/3.11/ on a ↔ /python/3.11/ on b, aligned pages, compared, highly similar).

The mirroring test needs no root page: it aligns the two hosts' paths (the same paths, or one
prefix standing for another: /x/y/ on a ↔ /z/ on b, found from the path suffixes they share),
compares up to --sample-paths aligned pages per alignment (8 alignments at most) and calls the
pair a mirror when, under some alignment, at least --agreement of the compared pages have
resemblance ≥ --threshold; not mirror when every alignment with --min-paths compared pages falls
short; undetermined (with the reason and counts) when no alignment had that many comparable pages.

Flags:
  --algorithm NAME      ${ALGORITHMS.join('|')} (default combined)
                        ip4, ip3: same IP / same subnet (IPv4 /24, IPv6 /64); hosts, paths, prefix,
                        shingles: term vectors of host names and paths; conn: paths filtered by links;
                        hconn1, hconn2: linked-to hosts; combined: votes of ip4, prefix, hconn2, paths,
                        hosts; hybrid: combined joined with the pages' sketches (needs page content)
  --top N               pairs printed (and verified), 0 for all (default 1000)
  --verify              run the mirroring test on the printed pairs against the crawl's pages
  --ips FILE            host → IP lines ("host ip..." or /etc/hosts style "ip host..."); added to
                        the IPs the input records
  --min-urls N          hosts with fewer distinct URLs are left out (default ${DEFAULT_MIN_URLS}; the paper used 100)
  --truth FILE          mirror pairs, one "hostA hostB" per line: evaluate every algorithm against
                        them and print precision and relative recall on stderr
  --plot DIR            write the paper's Figures 1, 3 and 4 (SVG) and evaluation.json to DIR, from
                        --truth, or else from the mirroring test pooled over every algorithm's top N
  --seed N              seed of every random choice (default ${DEFAULT_SEED})
  --link-urls           also count URLs seen only as link targets (the paper's input did)
  --threshold X         resemblance at which two pages are highly similar (default 0.7, from curves
                        on two realistic crawls: see the README; the paper used 0.5 on pages with
                        dynamic parts, which lets a distant release of a manual pass as a mirror)
  --agreement X         share of compared pages highly similar for a mirror (default 0.75, the
                        paper's m for conn)
  --sample-paths N      aligned pages compared per alignment (default 20); cost: 2 page reads each
  --min-paths N         compared pages below which an alignment is undetermined (default 3)
  --infer               with --verify, skip pairs whose verdict follows from earlier ones by
                        transitivity (the paper's pooling; wrong for hosts holding several collections)
`,
  options: {
    ...READER_FLAGS,
    algorithm: { type: 'string' },
    top: { type: 'string' },
    verify: { type: 'boolean' },
    ips: { type: 'string' },
    'min-urls': { type: 'string' },
    truth: { type: 'string' },
    plot: { type: 'string' },
    seed: { type: 'string' },
    'link-urls': { type: 'boolean' },
    threshold: { type: 'string' },
    agreement: { type: 'string' },
    'sample-paths': { type: 'string' },
    'min-paths': { type: 'string' },
    infer: { type: 'boolean' },
    'no-verify': { type: 'boolean' },
  },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const algorithmGiven = ctx.values.algorithm !== undefined;
    let algorithm = enumFlag(ctx.values, 'algorithm', 'hybrid', ALGORITHMS);
    if (ctx.values.verify === true && ctx.values['no-verify'] === true) throw optionError('--verify', 'one of --verify and --no-verify', 'both');
    const topFlag = intFlag(ctx.values, 'top', 1000, 0, 2 ** 31);
    const minUrls = intFlag(ctx.values, 'min-urls', DEFAULT_MIN_URLS, 1, 2 ** 31);
    const seed = intFlag(ctx.values, 'seed', DEFAULT_SEED, 0, 2 ** 32 - 1);
    let verify = ctx.values['no-verify'] !== true;
    const rule: MirrorRuleOptions = {
      threshold: numberFlag(ctx.values, 'threshold', RULE_DEFAULTS.threshold, 0, 1),
      agreement: numberFlag(ctx.values, 'agreement', RULE_DEFAULTS.agreement, 0.01, 1),
      samplePaths: intFlag(ctx.values, 'sample-paths', RULE_DEFAULTS.samplePaths, 1, 100000),
      minPaths: intFlag(ctx.values, 'min-paths', RULE_DEFAULTS.minPaths, 1, 100000),
    };
    const infer = ctx.values.infer === true;
    if (infer && !verify) throw optionError('--infer', 'to come with the mirroring test (not --no-verify)', true);
    const ipsPath = stringOf(ctx.values, 'ips');
    const truthPath = stringOf(ctx.values, 'truth');
    const plotDir = stringOf(ctx.values, 'plot');
    if (plotDir !== undefined) checkOutput(plotDir, ctx.positionals, '--plot');
    const evaluate = truthPath !== undefined || plotDir !== undefined;
    const hostsFile = ipsPath === undefined ? undefined : parseHostsFile(readText(ipsPath, '--ips'), ipsPath);
    const truthFile = truthPath === undefined ? undefined : parseTruthFile(readText(truthPath, '--truth'), truthPath);

    let wanted: AlgorithmName[] = evaluate ? [...ALGORITHMS] : [algorithm];
    const links = wanted.some((a) => NEEDS_LINKS.includes(a));
    const loaded = await openCrawl(ctx, ctx.positionals, { links });
    // the crawl's web phenomena, as the streaming command reads them: variants and soft-404s are no evidence
    const collector = new CrawlPhenomena();
    loaded.documents.forEach((d, i) => collector.observe(d, i));
    const phenomena = collector.report();
    const crawl = { ...loaded, documents: loaded.documents.filter((_, i) => phenomena.roles[i] === ROLE_PAGE) };
    reportPhenomena(ctx, phenomena);
    const input = mirrorInputFromDocuments(crawl.documents, { linkUrls: ctx.values['link-urls'] === true });
    const ips = new Map(input.ips);
    for (const [h, list] of hostsFile?.ips ?? []) ips.set(h, [...new Set([...(ips.get(h) ?? []), ...list])]);
    const hosts = HostSet.fromUrls(input.urls, { minUrls, ips, locations: input.locations, source: 'input' });
    report(ctx, [...input.errors, ...(hostsFile?.errors ?? []), ...(truthFile?.errors ?? []), ...hosts.errors]);
    if (hosts.size < 2) {
      throw new ResembleError('E_INPUT', `expected at least two hosts with ${minUrls} or more URLs, got ${hosts.size} (${hosts.droppedHosts} smaller hosts left out; see --min-urls)`);
    }
    const hasContent = crawl.documents.some((d) => d.bytes.length > 0);
    if (!hasContent && !algorithmGiven) {
      algorithm = 'combined';
      if (!evaluate) wanted = [algorithm];
    }
    if (!hasContent && ctx.values.verify !== true) verify = false;
    if (infer && !verify) throw optionError('--infer', 'to come with the mirroring test, which needs page content', true);
    const needsSketches = verify || wanted.includes('hybrid') || (plotDir !== undefined && truthFile === undefined);
    if (needsSketches) await init();
    if (algorithm === 'hybrid' && !hasContent) {
      throw new ResembleError('E_INPUT', 'hybrid needs page content; the input holds URLs only (use another --algorithm)');
    }
    const content = hasContent && wanted.includes('hybrid') ? hostContentFromDocuments(hosts, crawl.documents) : undefined;
    const table = LinkTable.fromDocuments(hosts, crawl.documents);
    const rankings = rankAll(hosts, table, content, { seed, hybrid: rule }, wanted.filter((a) => a !== 'hybrid' || content));
    const ranking = rankings[algorithm]!;
    const top = topFlag === 0 ? ranking.length : Math.min(topFlag, ranking.length);

    const source = crawlContentSource(crawl.documents);
    const pool = new MirrorPool(hosts.size);
    let results: MirroringResult[] = [];
    if (verify) {
      if (!hasContent) throw new ResembleError('E_INPUT', '--verify needs page content; the input holds URLs only');
      results = (await verifyRanking(ranking, source, { ...rule, pageBytes: crawlPageBytes(crawl.documents), top, pool, infer })).results;
    }

    if (evaluate) await evaluateAll(ctx, hosts, Object.values(rankings), truthFile?.pairs, { ranking, results, pool, source, depth: topFlag === 0 ? undefined : topFlag, rule, infer, hasContent, plotDir });

    const judgeTruth = truthFile ? truthJudge(hosts, truthFile.pairs).judge : undefined;
    const out = createRecordWriter(ctx.out, format);
    for (let i = 0; i < top; i++) out.write(mirrorRecord(hosts, ranking, i, verify ? results[i] : undefined, judgeTruth ? judgeTruth(ranking.a[i], ranking.b[i]) === 1 : undefined));
    for (const r of aliasRecords(phenomena.hostAliases)) out.write(r);
    out.end();
    if (!ctx.quiet) {
      const count = (v: string) => results.filter((r) => r.verdict === v).length;
      // the wording is the command's (mirrorsSummary); the numbers are this reference's own
      const verdicts = verify ? { mirror: count('mirror'), notMirror: count('not mirror'), undetermined: count('undetermined') } : undefined;
      ctx.err.write(mirrorsSummary({ algorithm, hosts: hosts.size, droppedHosts: hosts.droppedHosts, minUrls, rankedPairs: ranking.length, written: top, ...(verdicts ? { verdicts } : {}) }) + '\n');
    }
    return 0;
  },
};

interface EvaluateContext {
  ranking: Ranking;
  results: MirroringResult[];
  pool: MirrorPool;
  source: ReturnType<typeof crawlContentSource>;
  /** Ranks evaluated (and verified, without a truth file) per ranking; undefined for all. */
  depth: number | undefined;
  rule: MirrorRuleOptions;
  infer: boolean;
  hasContent: boolean;
  plotDir: string | undefined;
}

/** Evaluates every ranking against the truth file, or else against the mirroring test pooled over their top N (§4.1.2); prints a table, writes figures. */
async function evaluateAll(ctx: CommandContext, hosts: HostSet, rankings: Ranking[], truth: Array<[string, string]> | undefined, e: EvaluateContext): Promise<void> {
  let judge: Judge;
  if (truth) {
    const t = truthJudge(hosts, truth);
    if (t.unknownHosts.length > 0 && !ctx.quiet) ctx.err.write(`truth: ${t.unknownHosts.length} hosts not among the ranked hosts (e.g. ${t.unknownHosts.slice(0, 3).join(', ')})\n`);
    judge = t.judge;
  } else {
    if (!e.hasContent) throw new ResembleError('E_INPUT', '--plot without --truth pools mirroring-test verdicts, which needs page content; give --truth FILE');
    const verified = [{ ranking: e.ranking, results: e.results }];
    for (const r of rankings) {
      if (r === e.ranking && e.results.length > 0) continue;
      verified.push({ ranking: r, results: (await verifyRanking(r, e.source, { ...e.rule, top: e.depth, pool: e.pool, infer: e.infer })).results });
    }
    judge = poolJudge(e.pool, verified);
  }
  const { curves, total } = evaluateRankings(rankings, judge, { maxRank: e.depth });
  if (!ctx.quiet) {
    ctx.err.write(`evaluation against ${truth ? 'the truth file' : 'pooled mirroring-test verdicts'}: ${total} mirror pairs found by the union of all rankings\n`);
    ctx.err.write('algorithm   ranked  precision@end  relative recall@end  recall@end\n');
    for (const c of curves) {
      const n = c.precision.length;
      const last = (x: Float64Array) => (n ? round4(x[n - 1]).toFixed(4) : '-');
      ctx.err.write(`${c.algorithm.padEnd(10)} ${String(n).padStart(7)}  ${last(c.precision).padStart(13)}  ${last(c.relativeRecall).padStart(19)}  ${last(c.recall).padStart(10)}\n`);
    }
  }
  if (e.plotDir === undefined) return;
  mkdirSync(e.plotDir, { recursive: true });
  for (const f of mirrorFigures(curves)) writeFileAtomic(join(e.plotDir, f.file), await plotSeries(f.series, f.options));
  const summary = curves.map((c) => {
    const n = c.precision.length;
    return { algorithm: c.algorithm, ranked: n, found: n ? c.found[n - 1] : 0, precision: n ? round4(c.precision[n - 1]) : null, relativeRecall: n ? round4(c.relativeRecall[n - 1]) : null, recall: n ? round4(c.recall[n - 1]) : null };
  });
  writeFileAtomic(join(e.plotDir, 'evaluation.json'), JSON.stringify({ total, algorithms: summary }, null, 2) + '\n');
  if (!ctx.quiet) ctx.err.write(`wrote Figures 1, 3, 4 and evaluation.json to ${e.plotDir}\n`);
}
