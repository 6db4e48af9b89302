import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { optionError, ResembleError } from '../../errors.js';
import { init } from '../../index.js';
import { collisionGroups, findCollisions } from '../../signatures/collisions.js';
import { signaturesOfCrawl } from '../../signatures/crawl-signatures.js';
import { precisionRecall, sampleReference } from '../../signatures/evaluate.js';
import { collisionParams, signatureParams, type SignatureOptions } from '../../signatures/options.js';
import { precisionRecallPlot } from '../../signatures/plot.js';
import type { WebGraph } from '../../graph/web-graph.js';
import { enumFlag, formatOf, intFlag, numberFlag, stringOf, READER_FLAGS } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { openCrawl } from '../input.js';
import { checkOutput, writeFileAtomic, writeRecords } from '../output.js';

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
 * colliding groups with their RP and HM distances, or with --evaluate the precision–recall table.
 */
export const command: Command = {
  name: 'signatures',
  summary: 'near-replicas by Random Projection and Hyperlink Map signatures (content + link context)',
  usage: `Usage: resemble signatures INPUT... [--k 5] [--gamma 0.5] [--iterations 4] [--C 0.1 --D 0.1] [flags]

Each page gets an RP signature (its bag of words projected to K dimensions, scaled into [0, 1]) and
an HM signature (RP signatures propagated from the pages it links to). Pages collide when their HM
signatures differ by less than C and their RP signatures by less than D in every component.
Writes one record per group of colliding pages: group, size, members (url, through: the member it
collides with on its path from the first, rpDistance, hmDistance: the infinity-norm distances).

With --evaluate, writes precision and recall instead, for curves along C at each D of --sweep-D and
an RP-only curve along D (the paper's Figure 1): precision from the cosine of bags of words
(≥ --threshold with a page it collides with), recall against --reference or a sampled reference set.

Flags:
  --k N                 dimensions of both signatures (default 5)
  --gamma X             damping γ of the HM propagation, 0..1 (default 0.5)
  --iterations N        HM iterations (default 4)
  --C X                 HM tolerance (default 0.1; 2 or more: RP alone)
  --D X                 RP tolerance (default 0.1)
  --seed N              seed of the projection (default 0)
  --weighting unit|tf   bag-of-words weights: counts scaled to length 1, or raw counts (default unit)
  --evaluate            precision–recall table instead of groups
  --reference FILE      reference pages (one URL per line) for recall (default: sample --sample pages
                        whose cosine with some page reaches --threshold)
  --sample N            size of the sampled reference set (default 100)
  --threshold X         cosine at or above which two pages are near-replicas (default 0.9)
  --sweep-C LIST        C values of the curves (default 0.005,0.01,0.02,0.05,0.1,0.2)
  --sweep-D LIST        D of each curve (default 0.02,0.05,0.1)
  --rp-only-D LIST      D values of the RP-only curve (default 0.01,0.02,0.05,0.1,0.2)
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
    evaluate: { type: 'boolean' },
    reference: { type: 'string' },
    sample: { type: 'string' },
    threshold: { type: 'string' },
    'sweep-C': { type: 'string' },
    'sweep-D': { type: 'string' },
    'rp-only-D': { type: 'string' },
    plots: { type: 'string' },
  },
  async run(ctx: CommandContext) {
    const v = ctx.values;
    const format = formatOf(v);
    const options: SignatureOptions = {
      k: intFlag(v, 'k', 5, 1, 256),
      gamma: numberFlag(v, 'gamma', 0.5, 0, 1),
      iterations: intFlag(v, 'iterations', 4, 0, 1000),
      seed: intFlag(v, 'seed', 0, 0, 0xffffffff),
      weighting: enumFlag(v, 'weighting', 'unit', ['unit', 'tf'] as const),
    };
    signatureParams(options);
    const C = numberFlag(v, 'C', 0.1, 0, 1e6);
    const D = numberFlag(v, 'D', 0.1, 0, 1e6);
    collisionParams({ C, D });
    const threshold = numberFlag(v, 'threshold', 0.9, 0, 1);
    const sampleSize = intFlag(v, 'sample', 100, 1, 2 ** 31);
    const sweep = { C: listOf('sweep-C', stringOf(v, 'sweep-C')), D: listOf('sweep-D', stringOf(v, 'sweep-D')), rpOnlyD: listOf('rp-only-D', stringOf(v, 'rp-only-D')) };
    const plots = stringOf(v, 'plots');
    if (plots !== undefined) checkOutput(plots, ctx.positionals, '--plots');
    if (plots !== undefined && !v.evaluate) throw optionError('--plots', 'to come with --evaluate', plots);
    if (ctx.positionals.length === 0) throw optionError('INPUT', 'at least one crawl input', 'none');
    await init();
    const crawl = await openCrawl(ctx, ctx.positionals);
    const { bags, signatures } = signaturesOfCrawl(crawl.documents, crawl.graph, options);
    const urls = crawl.graph.urls;
    const k = signatures.params.k;

    if (!v.evaluate) {
      const pairs = findCollisions(signatures.rp, signatures.hm, k, { C, D });
      const groups = collisionGroups(signatures.size, pairs);
      writeRecords(ctx.out, format, groups.map((g, i) => ({
        group: i,
        size: g.members.length,
        members: g.members.map((m) => ({ url: urls[m.doc], through: m.through < 0 ? null : urls[m.through], rpDistance: m.rpDistance, hmDistance: m.hmDistance })),
      })));
      if (!ctx.quiet) ctx.err.write(`signatures: ${pairs.a.length} colliding pairs in ${groups.length} groups (C = ${C}, D = ${D}, K = ${k})\n`);
      return 0;
    }

    const refPath = stringOf(v, 'reference');
    const reference = refPath !== undefined ? await referenceOf(refPath, crawl.graph) : sampleReference(bags, { size: sampleSize, threshold });
    if (!ctx.quiet) ctx.err.write(`signatures: reference set of ${reference.length} pages${refPath ? ` from ${refPath}` : ` sampled (cosine ≥ ${threshold})`}\n`);
    const points = precisionRecall(bags, signatures, reference, { ...sweep, threshold });
    writeRecords(ctx.out, format, points);
    if (plots !== undefined) {
      await mkdir(plots, { recursive: true });
      writeFileAtomic(join(plots, 'precision-recall.svg'), await precisionRecallPlot(points));
      if (!ctx.quiet) ctx.err.write(`plots: ${join(plots, 'precision-recall.svg')}\n`);
    }
    return 0;
  },
};
