import { writeFileSync } from 'node:fs';
import { ResembleError } from '../../errors.js';
import { KEEP_RULES, type KeepRule } from '../../cluster/dedup.js';
import { NEAR_DUPLICATE_DEFAULTS as D } from '../../cluster/defaults.js';
import { dedup } from '../../cluster/deduplicate.js';
import { enumFlag, stringOf } from '../args.js';
import type { Command } from '../command.js';
import { PIPELINE_USAGE } from '../input.js';
import { count } from '../progress.js';
import { DUPS_FLAGS, dupsSummary, findOptionsOf, METHOD_USAGE, POLICY_USAGE, reportRead, withCliCallbacks } from './dups.js';
import { SKETCH_USAGE } from '../args.js';
import { CONTENT_USAGE, printContent } from '../content.js';
import { checkOutput } from '../output.js';

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
  formats: { accepted: ['jsonl'], unset: 'jsonl, the input records as they were read' },
  options: { ...DUPS_FLAGS, keep: { type: 'string' }, 'drop-list': { type: 'string' } },
  async run(ctx) {
    const v = ctx.values;
    const keep = enumFlag(v, 'keep', D.keep, KEEP_RULES) as KeepRule;
    const dropList = stringOf(v, 'drop-list');
    if (dropList !== undefined) checkOutput(dropList, ctx.positionals, '--drop-list');
    // The kept records are copied from the input on a second read.
    if (ctx.positionals.includes('-')) throw new ResembleError('E_OPTION', 'expected files or folders for dedup: it reads its input twice, and standard input only once', { option: 'INPUT' });
    const flags = findOptionsOf(v, 'first');
    const { representative: _rule, ...options } = flags.options;
    const input = ctx.positionals.length === 1 ? ctx.positionals[0] : { paths: ctx.positionals };
    const cli = await withCliCallbacks(ctx, options);
    let done;
    try {
      done = await dedup(input, { ...cli.options, keep, onRecord: (_record, line) => ctx.out.write(line + '\n') });
    } finally {
      cli.stop();
    }
    const s = done.summary;
    reportRead(ctx, s);
    if (dropList !== undefined) {
      try {
        writeFileSync(dropList, done.dropped.map((r) => JSON.stringify(r) + '\n').join(''));
      } catch (e) {
        throw new ResembleError('E_IO', `cannot write the drop list ${dropList}: ${(e as Error).message}`, { path: dropList });
      }
    }
    printContent(ctx, flags.content, s.content, done.thin);
    if (!ctx.quiet) {
      ctx.err.write(dupsSummary(s).replace(/^dups:/, 'dedup:') + '\n');
      ctx.err.write(`dedup: kept ${count(s.kept)} of ${count(s.pages)} pages, dropped ${count(s.dropped)} near-duplicates (one kept per cluster, by ${keep})${dropList ? `; drop list in ${dropList}` : ''}\n`);
    }
    return 0;
  },
};
