// The signatures command as it was before it streamed (it read the whole crawl with openCrawl): the reference
// its streaming version is compared with, output for output (test/stream/stream-commands.test.ts).
// With the verified defaults: page bags, candidates within D = 0.1 verified by the exact resemblance
// of the pages' word-8-shingle sets, made here from the loaded documents (crawlShingleSets).
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { optionError, ResembleError } from '../../../src/errors.js';
import { init } from '../../../src/index.js';
import { signatureReport } from '../../../src/signatures/report.js';
import { crawlShingleSets, signaturesOfCrawl } from '../../../src/signatures/crawl-signatures.js';
import { precisionRecall, sampleReference } from '../../../src/signatures/evaluate.js';
import { collisionParams, SIGNATURE_DEFAULTS, signatureParams, VERIFIED_DEFAULTS, type SignatureOptions } from '../../../src/signatures/options.js';
import { exactJaccard, pairsAtLeast } from '../../../src/signatures/pair-evaluation.js';
import { precisionRecallPlot } from '../../../src/signatures/plot.js';
import type { WebGraph } from '../../../src/graph/web-graph.js';
import { enumFlag, formatOf, intFlag, numberFlag, stringOf, READER_FLAGS } from '../../../src/cli/args.js';
import type { Command, CommandContext } from '../../../src/cli/command.js';
import { openCrawl } from '../../../src/cli/input.js';
import { checkOutput, round4, writeFileAtomic, writeRecords } from '../../../src/cli/output.js';
import { signaturesSummary } from '../../../src/cli/commands/signatures.js';

/** Takes a comma-separated list of tolerances; returns the numbers. */
function listOf(name: string, raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  const values = raw.split(',').map((s) => Number(s.trim()));
  if (values.length === 0 || values.some((v) => !(v > 0) || !Number.isFinite(v))) throw optionError(`--${name}`, 'comma-separated numbers > 0', raw);
  return values;
}

/** Takes a reference file (one URL per line; # comments) and the graph; returns the DocIds, or throws for a URL not in the crawl. */
async function referenceOf(path: string, graph: WebGraph): Promise<Uint32Array> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ResembleError('E_IO', `cannot read the reference set ${path}: ${(e as Error).message}`, { path });
  }
  const ids: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const url = line.replace(/#.*/, '').trim();
    if (url === '') return;
    const id = graph.docId(url);
    if (id === undefined) throw new ResembleError('E_INPUT', `${path}:${i + 1}: ${url} is not a page of the crawl`, { path, line: i + 1 });
    ids.push(id);
  });
  return Uint32Array.from(new Set(ids)).sort();
}

/**
 * `resemble signatures`: near-replicas by content and hyperlink signatures (Di Iorio et al. 2003) —
 * colliding pairs with their RP and HM distances and groups that do not chain, or with --evaluate
 * the precision–recall table, page level and pair level.
 */
export const command: Command = {
  name: 'signatures',
  summary: 'near-replicas by Random Projection and Hyperlink Map signatures (content + link context)',
  usage: `Usage: resemble signatures INPUT... [--k ${SIGNATURE_DEFAULTS.k}] [--C ${SIGNATURE_DEFAULTS.C} --D ${SIGNATURE_DEFAULTS.D}] [--output pairs,groups] [flags]

Each page gets an RP signature (its bag of words projected to K dimensions, each scaled into [0, 1]
over the crawl) and an HM signature (RP signatures propagated from the pages it links to). Two pages
collide when their HM signatures differ by less than C and their RP signatures by less than D in
every component. Writes, by default, one record per colliding pair:
  {a, b, rpDistance, hmDistance}            (the infinity-norm distances)
then one record per group of pages that do not chain (the signatures' report as the streaming command makes it, from signatures made in memory): every two members of a group collide (a
clique of the collision graph, built greedily in input order: a page joins the first group all of
whose members it collides with). Colliding pages are never joined through a chain of collisions.
  {group, size, members: [{url, rpDistance, hmDistance}]}   (distances to the first member)

With --evaluate, writes precision and recall instead, for curves along C at each D of --sweep-D and
an RP-only curve along D (the paper's Figure 1): page level (a page returned is correct when the
cosine of bags of words with a page it collides with reaches --threshold; recall over --reference
or a sampled reference set) and pair level against exact word-8-shingle Jaccard (pairPrecision:
colliding pairs with Jaccard ≥ --pair-precision-at; pairRecall: pairs with Jaccard ≥
--pair-recall-at that collide, all of them found exactly by prefix filtering).

The defaults come from curves measured on two realistic crawls of real documentation (README,
"Signatures"): K = 32, D = 0.03 with HM unconstrained (C = 2) gave pair precision 0.990 and 0.970
(Jaccard ≥ 0.8) at recall 0.970 and 0.978 (Jaccard ≥ 0.9). No C raised precision there; give
--C 0.1 (the paper's) to require the link context too.

Flags:
  --k N                 dimensions of both signatures (default ${SIGNATURE_DEFAULTS.k}; cost linear in N)
  --gamma X             damping γ of the HM propagation, 0..1 (default 0.5)
  --iterations N        HM iterations (default 4)
  --C X                 HM tolerance (default ${SIGNATURE_DEFAULTS.C}: 2 or more is RP alone; the paper used 0.1)
  --D X                 RP tolerance, relative to each dimension's spread (default ${SIGNATURE_DEFAULTS.D})
  --seed N              seed of the projection (default 0)
  --weighting unit|tf   bag-of-words weights: counts scaled to length 1, or raw counts (default unit)
  --content main|page   main (default): each HTML page's bag holds its own content, its site's template left
                        out where it is heavy (learnt as \`dups\` learns it); page: every word of the page
  --output LIST         pairs, groups or pairs,groups (default pairs,groups)
  --evaluate            precision–recall table instead of pairs and groups
  --reference FILE      reference pages (one URL per line) for page recall (default: sample --sample
                        pages whose cosine with some page reaches --threshold)
  --sample N            size of the sampled reference set (default 100)
  --threshold X         cosine at or above which two pages are near-replicas (default 0.9)
  --pair-precision-at X exact Jaccard a colliding pair needs to count as correct (default 0.8)
  --pair-recall-at X    exact Jaccard of the pairs recall is measured over (default 0.9)
  --sweep-C LIST        C values of the curves (default 0.02,0.05,0.1,0.2)
  --sweep-D LIST        D of each curve (default 0.02,0.035,0.05)
  --rp-only-D LIST      D values of the RP-only curve (default 0.01,0.02,0.035,0.05,0.1)
  --plots DIR           with --evaluate, write precision-recall.svg into DIR`,
  options: {
    ...READER_FLAGS,
    k: { type: 'string' },
    gamma: { type: 'string' },
    iterations: { type: 'string' },
    C: { type: 'string' },
    D: { type: 'string' },
    seed: { type: 'string' },
    weighting: { type: 'string' },
    content: { type: 'string' },
    evaluate: { type: 'boolean' },
    reference: { type: 'string' },
    sample: { type: 'string' },
    threshold: { type: 'string' },
    'sweep-C': { type: 'string' },
    'sweep-D': { type: 'string' },
    'rp-only-D': { type: 'string' },
    plots: { type: 'string' },
    output: { type: 'string' },
    'pair-precision-at': { type: 'string' },
    'pair-recall-at': { type: 'string' },
    'verify-at': { type: 'string' },
  },
  async run(ctx: CommandContext) {
    const v = ctx.values;
    const format = formatOf(v);
    const options: SignatureOptions = {
      k: intFlag(v, 'k', SIGNATURE_DEFAULTS.k, 1, 256),
      gamma: numberFlag(v, 'gamma', 0.5, 0, 1),
      iterations: intFlag(v, 'iterations', 4, 0, 1000),
      seed: intFlag(v, 'seed', 0, 0, 0xffffffff),
      weighting: enumFlag(v, 'weighting', 'unit', ['unit', 'tf'] as const),
    };
    signatureParams(options);
    const content = enumFlag(v, 'content', VERIFIED_DEFAULTS.content, ['main', 'page'] as const);
    const C = numberFlag(v, 'C', SIGNATURE_DEFAULTS.C, 0, 1e6);
    if (v['verify-at'] !== undefined && v.evaluate) throw optionError('--verify-at', 'to come without --evaluate', v['verify-at']);
    const verifyAt = v.evaluate ? 0 : numberFlag(v, 'verify-at', VERIFIED_DEFAULTS.verifyAt, 0, 1);
    const D = numberFlag(v, 'D', verifyAt > 0 ? VERIFIED_DEFAULTS.D : SIGNATURE_DEFAULTS.D, 0, 1e6);
    collisionParams({ C, D });
    const threshold = numberFlag(v, 'threshold', 0.9, 0, 1);
    const sampleSize = intFlag(v, 'sample', 100, 1, 2 ** 31);
    const sweep = { C: listOf('sweep-C', stringOf(v, 'sweep-C')), D: listOf('sweep-D', stringOf(v, 'sweep-D')), rpOnlyD: listOf('rp-only-D', stringOf(v, 'rp-only-D')) };
    const plots = stringOf(v, 'plots');
    if (plots !== undefined) checkOutput(plots, ctx.positionals, '--plots');
    if (plots !== undefined && !v.evaluate) throw optionError('--plots', 'to come with --evaluate', plots);
    const outputRaw = stringOf(v, 'output');
    const output = new Set((outputRaw ?? 'pairs,groups').split(',').map((x) => x.trim()));
    if (output.size === 0 || [...output].some((x) => x !== 'pairs' && x !== 'groups')) throw optionError('--output', 'pairs, groups or pairs,groups', outputRaw);
    if (outputRaw !== undefined && v.evaluate) throw optionError('--output', 'to come without --evaluate', outputRaw);
    const pairPrecisionAt = numberFlag(v, 'pair-precision-at', 0.8, 0, 1);
    const pairRecallAt = numberFlag(v, 'pair-recall-at', 0.9, 0.001, 1);
    for (const f of ['pair-precision-at', 'pair-recall-at']) if (v[f] !== undefined && !v.evaluate) throw optionError(`--${f}`, 'to come with --evaluate', v[f]);
    if (ctx.positionals.length === 0) throw optionError('INPUT', 'at least one crawl input', 'none');
    await init();
    const crawl = await openCrawl(ctx, ctx.positionals);
    const { bags, signatures } = signaturesOfCrawl(crawl.documents, crawl.graph, options, { content });
    const urls = crawl.graph.urls;
    const k = signatures.params.k;

    if (!v.evaluate) {
      const sets = verifyAt > 0 ? crawlShingleSets(crawl.documents) : undefined;
      const verify = sets ? (a: number, b: number) => exactJaccard(sets, a, b) >= verifyAt - 1e-12 : undefined;
      const report = signatureReport(signatures.rp, signatures.hm, k, { C, D, ...(verify ? { verify } : {}) });
      const { pairs, groups } = report;
      const records: object[] = [];
      if (output.has('pairs')) {
        for (let i = 0; i < pairs.a.length; i++) {
          const r: Record<string, unknown> = { a: urls[pairs.a[i]], b: urls[pairs.b[i]], rpDistance: round4(pairs.rpDistance[i]), hmDistance: round4(pairs.hmDistance[i]) };
          if (pairs.aPages[i] > 1 || pairs.bPages[i] > 1) { r.aPages = pairs.aPages[i]; r.bPages = pairs.bPages[i]; }
          records.push(r);
        }
      }
      if (output.has('groups')) {
        groups.forEach((g, i) => records.push({
          group: i,
          size: g.members.length,
          pairsListed: g.pairsListed,
          members: g.members.map((m) => (m.copyOf >= 0
            ? { url: urls[m.doc], rpDistance: round4(m.rpDistance), hmDistance: round4(m.hmDistance), copyOf: urls[m.copyOf] }
            : { url: urls[m.doc], rpDistance: round4(m.rpDistance), hmDistance: round4(m.hmDistance) })),
        }));
      }
      writeRecords(ctx.out, format, records);
      // the wording is the command's (signaturesSummary); the numbers are this reference's own
      if (!ctx.quiet) ctx.err.write(signaturesSummary({ pairs: report.collidingPairs, listedPairs: pairs.a.length, groups: groups.length, groupedPages: groups.reduce((t, g) => t + g.members.length, 0), distinct: report.distinct, C, D, k, verifyAt, candidates: report.candidates, rejected: report.rejected }) + '\n');
      return 0;
    }

    const refPath = stringOf(v, 'reference');
    const reference = refPath !== undefined ? await referenceOf(refPath, crawl.graph) : sampleReference(bags, { size: sampleSize, threshold });
    if (!ctx.quiet) ctx.err.write(`signatures: reference set of ${reference.length} pages${refPath ? ` from ${refPath}` : ` sampled (cosine ≥ ${threshold})`}\n`);
    const sets = crawlShingleSets(crawl.documents);
    const wanted = pairsAtLeast(sets, pairRecallAt);
    if (!ctx.quiet) ctx.err.write(`signatures: ${wanted.a.length} pairs with exact 8-shingle Jaccard ≥ ${pairRecallAt} (pair recall); precision counts colliding pairs with Jaccard ≥ ${pairPrecisionAt}\n`);
    const points = precisionRecall(bags, signatures, reference, { ...sweep, threshold, exact: { sets, wanted, precisionAt: pairPrecisionAt } });
    writeRecords(ctx.out, format, points);
    if (plots !== undefined) {
      await mkdir(plots, { recursive: true });
      writeFileAtomic(join(plots, 'precision-recall.svg'), await precisionRecallPlot(points));
      if (!ctx.quiet) ctx.err.write(`plots: ${join(plots, 'precision-recall.svg')}\n`);
    }
    return 0;
  },
};
