import { optionError } from '../../errors.js';
import { buildIndex, indexClusterRecords, type BuildIndexOptions, type IndexSummary } from '../../cluster/resemble-index/build-index.js';
import { readIndexFile } from '../../cluster/resemble-index/file.js';
import type { ResembleIndex } from '../../cluster/resemble-index/resemble-index.js';
import { formatOf, READER_FLAGS, SKETCH_FLAGS, SKETCH_USAGE, sketchOptionsOf } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { cliReadOptions, PIPELINE_FLAGS, pipelineUsage, pipelineOf, requireInputs, startPipelineProgress } from '../input.js';
import { checkOutput, createRecordWriter, writeFileAtomic, writeRecords } from '../output.js';
import { POLICY_FLAGS, POLICY_USAGE, policyOf, reportRead } from './dups.js';
import { CONTENT_FLAGS, CONTENT_USAGE, contentOptionsOf, printContent, type ContentFlags } from '../content.js';

/** Writes an index file through a temporary name, so a failed write never leaves half a file; returns its size in bytes. */
export function writeIndexFile(path: string, index: ResembleIndex): number {
  const bytes = index.save();
  writeFileAtomic(path, bytes);
  return bytes.length;
}

/** Takes the command context, the inputs and the entry's options; streams them into the index with the progress display and the read summary on stderr, and reports what content mode did. */
async function sweep(ctx: CommandContext, inputs: string[], options: BuildIndexOptions, flags: ContentFlags) {
  requireInputs(inputs);
  const display = await startPipelineProgress(ctx, inputs);
  const { read, onError, onWarning } = cliReadOptions(ctx);
  let built;
  try {
    built = await buildIndex(inputs.length === 1 ? inputs[0] : { paths: inputs }, { ...options, read, onError, onWarning, onProgress: (p) => display.read(p) });
  } finally {
    display.stop();
  }
  reportRead(ctx, built.summary);
  printContent(ctx, flags, built.summary.content, built.thin);
  return built;
}

/** Takes an index, its file and size; returns the summary record build, add and remove print. */
function summary(s: Pick<IndexSummary, 'documents' | 'live' | 'clusters'>, path: string, bytes: number): Record<string, unknown> {
  return { index: path, documents: s.documents, live: s.live, clusters: s.clusters, bytes };
}

/** `resemble index build|add|remove|clusters`: maintains a saved index for `resemble query`. */
export const command: Command = {
  name: 'index',
  summary: 'build, extend or prune a saved index of sketches, postings and clusters',
  usage: `Usage: resemble index build FILE INPUT... [policy flags] [sketch flags]
       resemble index add FILE INPUT...
       resemble index remove FILE URL...
       resemble index clusters FILE

build   sketches every page of INPUT (wget mirror folder, .warc[.gz] (.arc, .wacz), .jsonl[.gz], URL list),
        clusters them and writes the index to FILE (sketches, shingle postings, URLs, crawl
        dates, clusters; a versioned binary format)
add     merges another sweep into FILE: pages identical (or equivalent) to indexed ones join
        their clusters at once, the others are compared with each other and looked up in the
        postings; sketched with the index's own parameters
remove  drops every page with one of these URLs; their clusters are re-formed without them
clusters prints every cluster of two or more live pages: {cluster, urls}, numbered 0, 1, … by
        their first page, as dups numbers them (and as query's hits name them)
build, add and remove print one summary record {index, documents, live, clusters, bytes, ...}.

Pages are sketched by their content (--content main, the default): each site's template is learnt
as the input streams (see Content flags) and saved in the index with the mode, so that add and
query sketch pages of a known site against the same template (pages of a new site learn theirs);
--content page indexes whole pages. Sketches of the two modes are never compared (E_PARAMS).

Policy flags (build only; stored in the index):
${POLICY_USAGE}

Flags of build and add:
${pipelineUsage([
  'the candidate pairs among the pages added found',
  'as SQL on embedded DuckDB under --memory-limit, spilling to --temp-dir',
  '(needs @duckdb/node-api): the same index, for sweeps whose pairs do not fit',
  'in memory',
])}

${CONTENT_USAGE.replace('Content flags:', 'Content flags (build only; stored in the index, except how templates are learnt):')}
  (add: --trust-after, --template-share, --template-held and --thin-out apply to the sites new to the index)

${SKETCH_USAGE}`,
  options: { ...POLICY_FLAGS, ...SKETCH_FLAGS, ...CONTENT_FLAGS, ...READER_FLAGS, ...PIPELINE_FLAGS },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const [action, file, ...rest] = ctx.positionals;
    const actions = ['build', 'add', 'remove', 'clusters'];
    if (action === undefined || !actions.includes(action)) throw optionError('action', actions.join(' | '), action);
    if (file === undefined) throw optionError('FILE', 'the index file after the action', undefined);
    const sketchFlags = [...Object.keys(SKETCH_FLAGS), 'content', 'link-density', 'min-content'].filter((k) => ctx.values[k] !== undefined);
    const policyFlags = Object.keys(POLICY_FLAGS).filter((k) => ctx.values[k] !== undefined);
    if (action !== 'build' && sketchFlags.length + policyFlags.length > 0) {
      throw optionError(`--${[...sketchFlags, ...policyFlags][0]}`, 'no value: only `index build` sets parameters (they are stored in the index)', ctx.values[[...sketchFlags, ...policyFlags][0]]);
    }
    const engineFlags = ['engine', 'memory-limit', 'temp-dir', 'workers'].filter((k) => ctx.values[k] !== undefined);
    if ((action === 'clusters' || action === 'remove') && engineFlags.length > 0) throw optionError(`--${engineFlags[0]}`, 'no value with index clusters or remove (they sketch nothing)', ctx.values[engineFlags[0]]);
    if (action === 'clusters') {
      if (rest.length) throw optionError('arguments', 'only FILE for index clusters', rest.join(' '));
      const out = createRecordWriter(ctx.out, format);
      for (const r of indexClusterRecords(readIndexFile(file))) out.write(r);
      out.end();
      return 0;
    }
    if (action === 'remove') {
      const index = readIndexFile(file);
      let removed = 0;
      for (const url of rest) if (index.has(url)) removed += index.remove(url);
      if (removed < rest.length && !ctx.quiet) ctx.err.write(`index remove: ${rest.length - removed} of the URLs were not in the index\n`);
      const bytes = writeIndexFile(file, index);
      writeRecords(ctx.out, format, [{ ...summary({ documents: index.size, live: index.liveCount, clusters: index.clusters().length }, file, bytes), removed }]);
      return 0;
    }
    if (rest.length === 0) throw optionError('INPUT', 'at least one crawl input after FILE', undefined);
    checkOutput(file, rest, 'the index file');
    const engine = pipelineOf(ctx.values);
    const run: BuildIndexOptions = {
      ...(engine.workers !== undefined ? { workers: engine.workers } : {}),
      ...(engine.engine === 'duckdb' ? { engine: 'duckdb', engineOptions: engine.engineOptions } : {}),
    };
    if (action === 'build') {
      const content = contentOptionsOf(ctx.values);
      const built = await sweep(ctx, rest, { ...run, ...policyOf(ctx.values), sketch: { ...sketchOptionsOf(ctx.values), ...content.sketch }, ...(content.template ? { templates: content.template } : {}) }, content);
      const bytes = writeIndexFile(file, built.index);
      writeRecords(ctx.out, format, [summary(built.summary, file, bytes)]);
      return 0;
    }
    const index = readIndexFile(file);
    const main = index.params.content === 'main';
    const content = contentOptionsOf({ ...ctx.values, content: main ? 'main' : 'page' });
    const built = await sweep(ctx, rest, { ...run, index, ...(main && content.template ? { templates: content.template } : {}) }, content);
    const bytes = writeIndexFile(file, index);
    const r = built.summary.added;
    writeRecords(ctx.out, format, [{ ...summary(built.summary, file, bytes), added: r.count, identical: r.identical, lexical: r.lexical, shingle: r.shingle, joins: r.joins }]);
    return 0;
  },
};
