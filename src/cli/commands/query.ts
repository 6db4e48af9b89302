import { optionError } from '../../errors.js';
import { queryIndex, type QueryIndexOptions } from '../../cluster/resemble-index/query-index.js';
import { enumFlag, formatOf, intFlag, numberFlag, stringOf } from '../args.js';
import type { Command } from '../command.js';
import { errorPrinter } from '../input.js';
import { createRecordWriter } from '../output.js';

/** `resemble query`: on-the-fly resemblance of any page against a saved index (Broder §4.2). */
export const command: Command = {
  name: 'query',
  summary: 'find the indexed pages resembling a page or URL (on-the-fly resemblance, lost and found)',
  usage: `Usage: resemble query --index FILE QUERY... [--threshold R] [--containment C] [--limit N] [--cluster]

QUERY is a URL in the index, or a file (HTML or text) sketched with the index's parameters: in
the index's content mode (content main, the default of index build: the template of the file's
site, saved in the index, is left out; give the URL it was fetched from with --url).
Prints one record per indexed page resembling the query, best first:
  {query, rank, url, resemblance, containment, contains, shared, cluster, date}
containment is how much of the query is in the page, contains how much of the page is in the
query. A URL in the index is compared with every other page, itself left out.
With --cluster, prints instead one record per URL query: {query, cluster, urls, newest}: the
pages of its cluster and the URL of the newest one by crawl date (lost and found). A cluster is
numbered as \`index clusters\` and \`dups\` number it; -1 for a page in no cluster.

Flags:
  --index FILE          the index written by \`resemble index build\` (required)
  --threshold R         minimum resemblance, 0..1 (default: the index's threshold)
  --containment C       also list pages whose containment either way reaches C (default: the index's)
  --limit N             at most N pages per query (default: all)
  --common-cap N        ignore shingles found in more than N pages (default: none ignored)
  --cluster             print the cluster of each URL instead (lost and found)
  --url URL             the URL the QUERY files were fetched from: in content mode, the template the
                        index holds for its site (the deepest it knows the URL under) is left out (default:
                        none; a site the index does not know has no template either)
  --content main|page   the mode the query is meant for: must be the index's (the default), since
                        sketches of different modes are never compared (E_PARAMS otherwise)`,
  options: {
    index: { type: 'string' }, threshold: { type: 'string' }, containment: { type: 'string' }, limit: { type: 'string' },
    'common-cap': { type: 'string' }, cluster: { type: 'boolean' }, url: { type: 'string' }, content: { type: 'string' },
  },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const file = stringOf(ctx.values, 'index');
    if (file === undefined) throw optionError('--index', 'the index FILE to query', undefined);
    if (ctx.positionals.length === 0) throw optionError('QUERY', 'at least one URL or file to look up', undefined);
    const options: QueryIndexOptions = {};
    if (ctx.values.threshold !== undefined) options.threshold = numberFlag(ctx.values, 'threshold', 0.5, 0, 1);
    if (ctx.values.containment !== undefined) options.containment = numberFlag(ctx.values, 'containment', 0, 0, 1);
    if (ctx.values.limit !== undefined) options.limit = intFlag(ctx.values, 'limit', 0, 1, 0x7fffffff);
    if (ctx.values['common-cap'] !== undefined) options.commonCap = intFlag(ctx.values, 'common-cap', 0, 1, 0x7fffffff);
    if (ctx.values.cluster === true) {
      if (Object.keys(options).length > 0) throw optionError('--cluster', 'no --threshold, --containment, --limit or --common-cap with it', true);
      options.cluster = true;
    }
    if (ctx.values.content !== undefined) options.content = enumFlag(ctx.values, 'content', 'main', ['main', 'page'] as const);
    const url = stringOf(ctx.values, 'url');
    if (url !== undefined) {
      if (options.cluster) throw optionError('--url', 'no value with --cluster', url);
      options.url = url;
    }
    const show = errorPrinter(ctx);
    const found = await queryIndex(file, { queries: ctx.positionals }, { ...options, onError: show, onWarning: show });
    // CSV: a cluster's URLs one row each (the convention of every command), a hit one row
    const out = createRecordWriter(ctx.out, format, options.cluster ? { members: ['urls'] } : {});
    for (const r of found.records) out.write(r);
    out.end();
    return 0;
  },
};
