import { statSync } from 'node:fs';
import { ResembleError, optionError } from '../../errors.js';
import { readSingleFile } from '../../io/crawl.js';
import { init } from '../../index.js';
import type { QueryOptions } from '../../cluster/resemble-index.js';
import { enumFlag, formatOf, intFlag, numberFlag, stringOf } from '../args.js';
import type { Command } from '../command.js';
import { errorLine } from '../input.js';
import { createRecordWriter } from '../output.js';
import { readIndexFile, sketchForIndex } from './index-cmd.js';

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
pages of its cluster and the URL of the newest one by crawl date (lost and found).

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
    const options: QueryOptions = {};
    if (ctx.values.threshold !== undefined) options.threshold = numberFlag(ctx.values, 'threshold', 0.5, 0, 1);
    if (ctx.values.containment !== undefined) options.containment = numberFlag(ctx.values, 'containment', 0, 0, 1);
    if (ctx.values.limit !== undefined) options.limit = intFlag(ctx.values, 'limit', 0, 1, 0x7fffffff);
    if (ctx.values['common-cap'] !== undefined) options.commonCap = intFlag(ctx.values, 'common-cap', 0, 1, 0x7fffffff);
    const clusterMode = ctx.values.cluster === true;
    if (clusterMode && Object.keys(options).length > 0) throw optionError('--cluster', 'no --threshold, --containment, --limit or --common-cap with it', true);
    const mode = ctx.values.content === undefined ? undefined : enumFlag(ctx.values, 'content', 'main', ['main', 'page'] as const);
    const url = stringOf(ctx.values, 'url');
    if (clusterMode && url !== undefined) throw optionError('--url', 'no value with --cluster', url);
    const index = readIndexFile(file);
    const indexMode = index.params.content ?? 'page';
    if (mode !== undefined && mode !== indexMode) {
      throw new ResembleError('E_PARAMS', `index ${file} holds --content ${indexMode} sketches; a --content ${mode} query cannot be compared with them (rebuild the index with --content ${mode})`, { option: '--content' });
    }
    const out = createRecordWriter(ctx.out, format);
    let answered = 0;
    for (const q of ctx.positionals) {
      const id = index.docId(q);
      if (clusterMode) {
        if (id < 0) { ctx.err.write(`query: ${q} is not a URL in the index\n`); continue; }
        const c = index.clusterOf(id);
        out.write({ query: q, cluster: c, urls: Array.from(index.clusterMembers(c), (d) => index.url(d) ?? null), newest: index.newestUrl(q) ?? null });
        answered++;
        continue;
      }
      let hits;
      if (id >= 0) hits = index.queryDoc(id, options);
      else {
        if (!isFile(q)) { ctx.err.write(`query: ${q} is neither a URL in the index nor a readable file (E_INPUT)\n`); continue; }
        let doc;
        for await (const d of readSingleFile(q, { links: false, onError: (e) => ctx.err.write(errorLine(e) + '\n') })) doc = d;
        if (!doc) { ctx.err.write(`query: ${q} is not a readable text file (E_INPUT)\n`); continue; }
        await init();
        const set = sketchForIndex(ctx, [doc], index, [url]);
        hits = index.query(set.get(0), options);
      }
      hits.forEach((h, rank) => out.write({
        query: q, rank: rank + 1, url: h.url ?? null, resemblance: h.resemblance, containment: h.containment, contains: h.contains,
        shared: h.shared, cluster: h.cluster, date: h.date,
      }));
      answered++;
    }
    out.end();
    if (answered === 0) throw new ResembleError('E_INPUT', 'no query could be answered');
    return 0;
  },
};

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
