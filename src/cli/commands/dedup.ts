import { closeSync, openSync, writeSync } from 'node:fs';
import { ResembleError } from '../../errors.js';
import { inlinkCounts, type FoundNearDuplicates } from '../../cluster/stream.js';
import { estimatePairs } from '../../cluster/estimate.js';
import { KEEP_RULES, keptRecords, planDedup, type KeepRule } from '../../cluster/dedup.js';
import { enumFlag, readerOptionsOf, stringOf } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { PIPELINE_USAGE } from '../input.js';
import { count } from '../progress.js';
import { DUPS_FLAGS, dupsSummary, findOptionsOf, METHOD_USAGE, POLICY_USAGE, runNearDuplicates } from './dups.js';
import { SKETCH_USAGE } from '../args.js';
import { CONTENT_USAGE, reportContent, type ContentFlags } from '../content.js';
import { checkOutput, round4 } from '../output.js';

/** `resemble dedup`: the input minus its near-duplicates, one page kept per cluster, streamed in input order. */
export const command: Command = {
  name: 'dedup',
  summary: 'write the input records without their near-duplicates (one kept per cluster), and a drop list',
  usage: `Usage: resemble dedup INPUT... [--keep first|longest|newest|most-linked] --out clean.jsonl
                     [--drop-list drops.jsonl] [dups flags]

Finds near-duplicate clusters as \`resemble dups\` does, keeps one page per cluster and writes the
input records without the others, in input order, as JSON lines. Records of .jsonl[.gz] inputs are
copied line for line (every field kept as it was); pages of other inputs are written as
{url, html | text, date?, ip?}. Records that could not be read are left out (reported on stderr).
Pages are compared by their content (--content main, the default: each host's template left
out); pages with too little content are kept, and dropped only as copies of their text (the
whole text, or the title and content, word for word).

Flags:
  --keep R              which page of a cluster stays: first (input order; default), longest (most
                        bytes), newest (latest crawl date; pages without one lose), most-linked
                        (most in-links from pages of the input); ties by input order
  --drop-list FILE      also write one record per dropped page: {id, duplicates, kind, resemblance}:
                        the URL dropped, the URL kept in its place, identical | lexical | shingle |
                        near, and their estimated resemblance (1 for equivalent copies); in a chained
                        cluster it can be under the threshold
${POLICY_USAGE}
${METHOD_USAGE}
${PIPELINE_USAGE}

${CONTENT_USAGE}

${SKETCH_USAGE}`,
  options: { ...DUPS_FLAGS, keep: { type: 'string' }, 'drop-list': { type: 'string' } },
  async run(ctx) {
    const v = ctx.values;
    if (v.format !== undefined && v.format !== 'jsonl') throw new ResembleError('E_OPTION', `expected --format jsonl for dedup (it writes the input records), got ${String(v.format)}`, { option: '--format' });
    const keep = enumFlag(v, 'keep', 'first', KEEP_RULES) as KeepRule;
    const dropList = stringOf(v, 'drop-list');
    if (dropList !== undefined) checkOutput(dropList, ctx.positionals, '--drop-list');
    // The kept records are copied from the input on a second read.
    if (ctx.positionals.includes('-')) throw new ResembleError('E_OPTION', 'expected files or folders for dedup: it reads its input twice, and standard input only once', { option: 'INPUT' });
    const options = findOptionsOf(v, keep === 'newest' ? 'newest' : keep === 'most-linked' ? 'most-linked' : 'first');
    const started = performance.now();
    const found = await runNearDuplicates(ctx, ctx.positionals, { ...options, keepLinks: keep === 'most-linked' });
    try {
      await writeDeduplicated(ctx, found, keep, dropList, options.content, started);
    } finally {
      found.close();
    }
    return 0;
  },
};

/** Writes the kept records, the drop list and the summary of a dedup run. */
async function writeDeduplicated(ctx: CommandContext, found: FoundNearDuplicates, keep: KeepRule, dropList: string | undefined, content: ContentFlags, started: number): Promise<void> {
  const { crawl, nd } = found;
  const plan = planDedup(nd.clusters, keep, {
    sizes: crawl.sizes, dates: crawl.dates, inlinks: keep === 'most-linked' ? inlinkCounts(crawl.urls, crawl.links ?? []) : undefined,
  });
  for await (const line of keptRecords(ctx.positionals, plan, crawl.sources, readerOptionsOf(ctx.values))) ctx.out.write(line);
  if (dropList !== undefined) {
    let fd: number;
    try {
      fd = openSync(dropList, 'w');
    } catch (e) {
      throw new ResembleError('E_IO', `cannot write the drop list ${dropList}: ${(e as Error).message}`, { path: dropList });
    }
    try {
      const set = crawl.set;
      // How the dropped page relates to the kept one: equivalent copies, or the estimated resemblance
      // (estimated together: rows on disk are read a set at a time).
      const kindOf = (d: number, k: number) => set.rawFp[d] === set.rawFp[k] ? 'identical' : set.lexicalFp[d] === set.lexicalFp[k] ? 'lexical'
        : set.shingleFp[d] === set.shingleFp[k] && set.offsets[d + 1] > set.offsets[d] ? 'shingle' : 'near';
      const near: number[] = [];
      for (let d = 0; d < plan.keeper.length; d++) if (plan.keeper[d] >= 0 && kindOf(d, plan.keeper[d]) === 'near') near.push(d);
      const dropped = Uint32Array.from(near), kept = Uint32Array.from(near, (d) => plan.keeper[d]);
      const estimates = estimatePairs(nd.estimator(), dropped, kept).resemblance;
      let q = 0;
      for (let d = 0; d < plan.keeper.length; d++) {
        const k = plan.keeper[d];
        if (k < 0) continue;
        const kind = kindOf(d, k);
        const resemblance = kind === 'near' ? round4(estimates[q++]) : 1;
        const record = { id: crawl.urls[d], duplicates: crawl.urls[k], kind, resemblance };
        writeSync(fd, JSON.stringify(record) + '\n');
      }
    } finally {
      closeSync(fd);
    }
  }
  reportContent(ctx, content, crawl.set, crawl.urls, crawl.templates);
  if (!ctx.quiet) {
    ctx.err.write(dupsSummary(found, (performance.now() - started) / 1000).replace(/^dups:/, 'dedup:') + '\n');
    ctx.err.write(`dedup: kept ${count(crawl.urls.length - plan.dropped)} of ${count(crawl.urls.length)} pages, dropped ${count(plan.dropped)} near-duplicates (one kept per cluster, by ${keep})${dropList ? `; drop list in ${dropList}` : ''}\n`);
  }
}
