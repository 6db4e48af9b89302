import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { optionError, ResembleError } from '../../errors.js';
import { init } from '../../index.js';
import { findSignatureCollisions, SIGNATURE_RUN_DEFAULTS, type SignatureCollisionOptions } from '../../signatures/entry.js';
import { precisionRecallPlot } from '../../signatures/plot.js';
import { enumFlag, formatOf, intFlag, numberFlag, stringOf, READER_FLAGS } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { cliReadOptions, pipelineOf, readSummary, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
import { checkOutput, writeFileAtomic, writeRecords } from '../output.js';

/** Takes a comma-separated list of tolerances; returns the numbers. */
function listOf(name: string, raw: string | undefined): number[] | undefined {
  if (raw === undefined) return undefined;
  const values = raw.split(',').map((s) => Number(s.trim()));
  if (values.length === 0 || values.some((v) => !(v > 0) || !Number.isFinite(v))) throw optionError(`--${name}`, 'comma-separated numbers > 0', raw);
  return values;
}

/** Takes a reference file (one URL per line; # comments); returns its URLs, in order and the line each is on. */
async function referenceUrls(path: string): Promise<{ urls: string[]; lines: number[] }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ResembleError('E_IO', `cannot read the reference set ${path}: ${(e as Error).message}`, { path });
  }
  const urls: string[] = [], lines: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const url = line.replace(/#.*/, '').trim();
    if (url !== '') { urls.push(url); lines.push(i + 1); }
  });
  return { urls, lines };
}

/** Takes a signatures run's counts; returns its closing line, in plain words. */
export function signaturesSummary(s: { pairs: number; listedPairs: number; groups: number; groupedPages: number; distinct: number; C: number; D: number; k: number; verifyAt?: number; candidates?: number; rejected?: number }): string {
  const verified = s.verifyAt ? ` and whose texts' 8-word shingles are at least ${s.verifyAt} alike (exact resemblance; ${s.rejected} of the ${s.candidates} pairs of distinct signatures within the tolerances were less alike and were dropped)` : '';
  return `signatures: ${s.pairs} pairs of pages whose signatures match within the tolerances${verified} (${s.listedPairs} listed, the rest implied by the group records); `
    + `${s.groups} groups of pages in which every two match, holding ${s.groupedPages} pages; ${s.distinct} distinct signatures `
    + `(content tolerance D = ${s.D}, link tolerance C = ${s.C}${s.C >= 2 ? ', links not required' : ''}, ${s.k} dimensions)`;
}

/**
 * `resemble signatures`: near-replicas by content and hyperlink signatures (Di Iorio et al. 2003) —
 * colliding pairs with their RP and HM distances and groups that do not chain, or with --evaluate
 * the precision–recall table, page level and pair level.
 */
export const command: Command = {
  name: 'signatures',
  summary: 'near-replicas by Random Projection and Hyperlink Map signatures (content + link context)',
  usage: `Usage: resemble signatures INPUT... [--k ${SIGNATURE_RUN_DEFAULTS.k}] [--C ${SIGNATURE_RUN_DEFAULTS.C} --D ${SIGNATURE_RUN_DEFAULTS.D}] [--verify-at ${SIGNATURE_RUN_DEFAULTS.verifyAt}] [--records pairs,groups] [flags]

Each page gets an RP signature (its bag of words projected to K dimensions, each scaled into [0, 1]
over the crawl) and an HM signature (RP signatures propagated from the pages it links to). Two pages
are candidates when their HM signatures differ by less than C and their RP signatures by less than
D in every component, and collide when the exact resemblance of their word-8-shingle sets is at
least --verify-at (0: every candidate collides, the paper's rule). Writes, by default, one record
per colliding pair:
  {a, b, rpDistance, hmDistance}            (the infinity-norm distances)
then one record per group of pages that do not chain: every two members of a group collide (a
clique of the collision graph, built greedily in input order: a page joins the first group all of
whose members it collides with). Colliding pages are never joined through a chain of collisions.
  {group, size, members: [{url, rpDistance, hmDistance}]}   (distances to the first member)

With --evaluate, writes precision and recall instead, for curves along C at each D of --sweep-D and
an RP-only curve along D (the paper's Figure 1, unverified): page level (a page returned is correct
when the cosine of bags of words with a page it collides with reaches --threshold; recall over
--reference or a sampled reference set) and pair level against exact word-8-shingle Jaccard
(pairPrecision: colliding pairs with Jaccard ≥ --pair-precision-at; pairRecall: pairs with Jaccard
≥ --pair-recall-at that collide, all of them found exactly by prefix filtering).

The defaults come from curves measured on four tuning crawls of real documentation
(docs/signatures.md): K = 32, candidates within D = 0.1 with HM unconstrained (C = 2), verified at
resemblance 0.85, gave pair precision 1.000 (Jaccard ≥ 0.8) at recall 1.000 (Jaccard ≥ 0.9) on
all four; unverified, no D reached both 0.97 on all of them. Give --verify-at 0 for the paper's
collisions (D then defaults to ${SIGNATURE_RUN_DEFAULTS.unverifiedD}), --C 0.1 (the paper's) to require the link context too.

Flags:
  --k N                 dimensions of both signatures (default ${SIGNATURE_RUN_DEFAULTS.k}; cost linear in N)
  --gamma X             damping γ of the HM propagation, 0..1 (default 0.5)
  --iterations N        HM iterations (default 4)
  --C X                 HM tolerance (default ${SIGNATURE_RUN_DEFAULTS.C}: 2 or more is RP alone; the paper used 0.1)
  --D X                 RP tolerance, relative to each dimension's spread (default ${SIGNATURE_RUN_DEFAULTS.D};
                        ${SIGNATURE_RUN_DEFAULTS.unverifiedD} with --verify-at 0)
  --verify-at X         exact word-8-shingle resemblance a candidate pair needs to collide, 0..1
                        (default ${SIGNATURE_RUN_DEFAULTS.verifyAt}; 0: no verification; not with --evaluate)
  --seed N              seed of the projection (default 0)
  --weighting unit|tf   bag-of-words weights: counts scaled to length 1, or raw counts (default unit)
  --content page|main   page (default): every word of the page; main: each HTML page's bag holds its own
                        content, its site's template left out where it is heavy (learnt as \`dups\` learns it)
  --records LIST        pairs, groups or pairs,groups (default pairs,groups)
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
  --plots DIR           with --evaluate, write precision-recall.svg into DIR
  --workers N           threads that make bags of words while the input is read (default: the
                        available cores); the output is the same for any N

The input is read as a stream: each batch of pages becomes bags of words on the worker threads and
only the bags, URLs and links are kept, and each page's word-8 shingles (to verify candidates, and
with --evaluate). With
--content main, HTML pages are also written to a temporary file as they are read: once every site's
template is learnt from its first pages, they are read back from it for their content words.`,
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
    records: { type: 'string' },
    'pair-precision-at': { type: 'string' },
    'pair-recall-at': { type: 'string' },
    'verify-at': { type: 'string' },
    workers: { type: 'string' },
  },
  renamed: { output: 'is now --records LIST in signatures (pairs, groups or pairs,groups; --out FILE is where they go)' },
  async run(ctx: CommandContext) {
    const v = ctx.values;
    const format = formatOf(v);
    const R = SIGNATURE_RUN_DEFAULTS;
    const options: SignatureCollisionOptions = {
      k: intFlag(v, 'k', R.k, 1, 256),
      gamma: numberFlag(v, 'gamma', 0.5, 0, 1),
      iterations: intFlag(v, 'iterations', 4, 0, 1000),
      seed: intFlag(v, 'seed', 0, 0, 0xffffffff),
      weighting: enumFlag(v, 'weighting', 'unit', ['unit', 'tf'] as const),
      content: enumFlag(v, 'content', R.content, ['main', 'page'] as const),
      C: numberFlag(v, 'C', R.C, 0, 1e6),
    };
    const evaluate = v.evaluate === true;
    if (v['verify-at'] !== undefined && evaluate) throw optionError('--verify-at', 'to come without --evaluate', v['verify-at']);
    const verifyAt = evaluate ? 0 : numberFlag(v, 'verify-at', R.verifyAt, 0, 1);
    if (!evaluate) options.verifyAt = verifyAt;
    options.D = numberFlag(v, 'D', verifyAt > 0 ? R.D : R.unverifiedD, 0, 1e6);
    const plots = stringOf(v, 'plots');
    if (plots !== undefined) checkOutput(plots, ctx.positionals, '--plots');
    if (plots !== undefined && !evaluate) throw optionError('--plots', 'to come with --evaluate', plots);
    const recordsRaw = stringOf(v, 'records');
    const wanted = new Set((recordsRaw ?? 'pairs,groups').split(',').map((x) => x.trim()));
    if (wanted.size === 0 || [...wanted].some((x) => x !== 'pairs' && x !== 'groups')) throw optionError('--records', 'pairs, groups or pairs,groups', recordsRaw);
    if (recordsRaw !== undefined && evaluate) throw optionError('--records', 'to come without --evaluate', recordsRaw);
    if (recordsRaw !== undefined) options.records = (['pairs', 'groups'] as const).filter((x) => wanted.has(x));
    for (const f of ['pair-precision-at', 'pair-recall-at']) if (v[f] !== undefined && !evaluate) throw optionError(`--${f}`, 'to come with --evaluate', v[f]);
    if (evaluate) {
      Object.assign(options, {
        evaluate, threshold: numberFlag(v, 'threshold', R.threshold, 0, 1), sample: intFlag(v, 'sample', R.sample, 1, 2 ** 31),
        pairPrecisionAt: numberFlag(v, 'pair-precision-at', R.pairPrecisionAt, 0, 1), pairRecallAt: numberFlag(v, 'pair-recall-at', R.pairRecallAt, 0.001, 1),
      });
      for (const [flag, key] of [['sweep-C', 'sweepC'], ['sweep-D', 'sweepD'], ['rp-only-D', 'rpOnlyD']] as const) {
        const list = listOf(flag, stringOf(v, flag));
        if (list) options[key] = list;
      }
    } else {
      // the evaluation's flags are checked as before, and then left unused
      numberFlag(v, 'threshold', R.threshold, 0, 1);
      intFlag(v, 'sample', R.sample, 1, 2 ** 31);
      for (const flag of ['sweep-C', 'sweep-D', 'rp-only-D']) listOf(flag, stringOf(v, flag));
    }
    if (ctx.positionals.length === 0) throw optionError('INPUT', 'at least one crawl input', 'none');
    const { workers } = pipelineOf({ workers: v.workers });
    if (workers !== undefined) options.workers = workers;
    requireInputs(ctx.positionals);
    const refPath = stringOf(v, 'reference');
    const ref = evaluate && refPath !== undefined ? await referenceUrls(refPath) : undefined;
    if (ref) options.reference = ref.urls;
    await init();
    const display = await startPipelineProgress(ctx, ctx.positionals);
    let found;
    try {
      found = await findSignatureCollisions(ctx.positionals.length === 1 ? ctx.positionals[0] : { paths: ctx.positionals }, {
        ...options, ...cliReadOptions(ctx), onProgress: (p) => display.read(p), onStage: (name, text) => display.stage(name, text),
      });
    } catch (e) {
      // a reference URL that is not a page of the crawl is named with its line of the file
      if (e instanceof ResembleError && ref && typeof e.detail.reference === 'number') {
        const line = ref.lines[e.detail.reference - 1];
        throw new ResembleError('E_INPUT', e.message.replace(/^reference \d+:/, `${refPath}:${line}:`), { path: refPath, line });
      }
      throw e;
    } finally {
      display.stop();
    }
    const s = found.summary;
    if (!ctx.quiet) ctx.err.write(readSummary({ urls: { length: s.pages } as string[], bytes: s.bytes, errors: { length: s.errors } as unknown[], skipped: s.skipped }) + '\n');
    requireDocuments(s.pages, s.errors, ctx.positionals);
    if (!evaluate) {
      writeRecords(ctx.out, format, found.records);
      if (!ctx.quiet) ctx.err.write(signaturesSummary(s) + '\n');
      return 0;
    }
    if (!ctx.quiet) {
      ctx.err.write(`signatures: reference set of ${s.reference!.pages} pages${refPath ? ` from ${refPath}` : ` sampled (cosine ≥ ${s.reference!.threshold})`}\n`);
      ctx.err.write(`signatures: ${s.wantedPairs} pairs with exact 8-shingle Jaccard ≥ ${options.pairRecallAt} (pair recall); precision counts colliding pairs with Jaccard ≥ ${options.pairPrecisionAt}\n`);
    }
    writeRecords(ctx.out, format, found.records);
    if (plots !== undefined) {
      await mkdir(plots, { recursive: true });
      writeFileAtomic(join(plots, 'precision-recall.svg'), await precisionRecallPlot(found.points!));
      if (!ctx.quiet) ctx.err.write(`plots: ${join(plots, 'precision-recall.svg')}\n`);
    }
    return 0;
  },
};
