import { readFileSync } from 'node:fs';
import { ResembleError, optionError } from '../../errors.js';
import { utf8Bytes, type Document } from '../../graph/document.js';
import { init, resolveSketchOptions, sketchMany } from '../../index.js';
import { packTables } from '../../template/crawl-templates.js';
import { deepestKnownSite } from '../../template/sites.js';
import { sketchCrawl, type CrawlSketch, type SketchCrawlOptions } from '../../stream/sketch-crawl.js';
import { WHOLE_PAGE } from '../../sketch/content.js';
import type { SketchOptions } from '../../sketch/options.js';
import { loadIndex, saveIndex } from '../../cluster/index-format.js';
import { sketchOptionsFor } from '../../cluster/records.js';
import { ResembleIndex } from '../../cluster/resemble-index.js';
import { formatOf, READER_FLAGS, SKETCH_FLAGS, SKETCH_USAGE, sketchOptionsOf } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { PIPELINE_FLAGS, pipelineUsage, readOptionsFor, pipelineOf, readSummary, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
import { duckDBPairFinder } from '../../scale/candidates.js';
import { checkOutput, createRecordWriter, writeFileAtomic, writeRecords } from '../output.js';
import { POLICY_FLAGS, POLICY_USAGE, policyOf } from './dups.js';
import { CONTENT_FLAGS, CONTENT_USAGE, contentOptionsOf, reportContent, type ContentFlags } from '../content.js';

/** Reads an index file; E_IO when it cannot be read, E_FORMAT / E_PARAMS from the format. */
export function readIndexFile(path: string): ResembleIndex {
  let bytes: Uint8Array;
  try {
    const buf = readFileSync(path);
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  } catch (e) {
    throw new ResembleError('E_IO', `cannot read index ${path}: ${(e as Error).message}`, { path });
  }
  try {
    return loadIndex(bytes);
  } catch (e) {
    // The format's own error says what is wrong; the file it is wrong in is named here.
    const code = e instanceof ResembleError ? e.code : 'E_FORMAT';
    throw new ResembleError(code, `index ${path} cannot be loaded: ${(e as Error).message}`, { path });
  }
}

/** Writes an index file through a temporary name, so a failed write never leaves half a file. */
export function writeIndexFile(path: string, index: ResembleIndex): number {
  const bytes = saveIndex(index);
  writeFileAtomic(path, bytes);
  return bytes.length;
}

/**
 * Sketches documents with the index's parameters; sketch errors go to stderr. In content mode each
 * page is sketched against the template its site had in the index (`urls[i]`, default the
 * document's URL; a site the index does not know: no template).
 */
export function sketchForIndex(ctx: CommandContext, docs: Document[], index: ResembleIndex, urls: readonly (string | undefined)[] = []) {
  const options = sketchOptionsFor(index.params);
  if (index.params.content === 'main') {
    const tables: BigUint64Array[] = [];
    const docTable = Uint32Array.from(docs, (d, i) => {
      const site = deepestKnownSite(index.templates, urls[i] ?? d.url);
      const t = site === undefined ? undefined : index.templates.get(site);
      if (!t) return WHOLE_PAGE;
      tables.push(t);
      return tables.length - 1;
    });
    Object.assign(options, { templates: packTables(tables, docTable) });
  }
  const set = sketchMany(docs.map(utf8Bytes), options);
  for (const e of set.errors) ctx.err.write(`${docs[e.index].source ?? docs[e.index].url}: ${e.message}\n`);
  return set;
}

/** Streams and sketches the inputs on the worker pool (progress, read errors and the read summary on stderr). */
async function sketchInputs(ctx: CommandContext, inputs: string[], sketch: SketchOptions, more: Pick<SketchCrawlOptions, 'templates' | 'sites'> = {}): Promise<CrawlSketch> {
  requireInputs(inputs);
  const { workers } = pipelineOf(ctx.values);
  const display = await startPipelineProgress(ctx, inputs);
  let crawl: CrawlSketch;
  try {
    crawl = await sketchCrawl(inputs, { sketch, workers, read: readOptionsFor(ctx), onProgress: (p) => display.read(p), ...more });
  } finally {
    display.stop();
  }
  for (const e of crawl.sketchErrors) ctx.err.write(`${crawl.sources[e.index]}: ${e.message}\n`);
  if (!ctx.quiet) ctx.err.write(readSummary(crawl) + '\n');
  requireDocuments(crawl.pages, crawl.errors.length, inputs);
  return crawl;
}

/** Adds a sweep's sketches to the index; with --engine duckdb the candidate pairs among them are found on DuckDB. */
function addSweep(index: ResembleIndex, crawl: CrawlSketch, engine: ReturnType<typeof pipelineOf>) {
  const meta = { urls: crawl.urls, dates: crawl.dates };
  return engine.engine === 'duckdb' ? index.addWith(crawl.set, meta, duckDBPairFinder(engine.engineOptions)) : Promise.resolve(index.add(crawl.set, meta));
}

/** Adds a crawl's sites and their templates to the index, and reports what content mode did. */
function keepTemplates(ctx: CommandContext, index: ResembleIndex, crawl: CrawlSketch, flags: ContentFlags): void {
  for (const [site, t] of crawl.templates?.bySite ?? []) index.templates.set(site, t);
  reportContent(ctx, flags, crawl.set, crawl.urls, crawl.templates);
}

function summary(index: ResembleIndex, path: string, bytes: number): Record<string, unknown> {
  return { index: path, documents: index.size, live: index.liveCount, clusters: index.clusters().length, bytes };
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
clusters prints every cluster of two or more live pages: {cluster, urls} (cluster: a DocId, as in query)
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
      const index = readIndexFile(file);
      const out = createRecordWriter(ctx.out, format);
      for (const m of index.clusters()) out.write({ cluster: index.clusterOf(m[0]), urls: Array.from(m, (d) => index.url(d) ?? null) });
      out.end();
      return 0;
    }
    if (action === 'remove') {
      const index = readIndexFile(file);
      let removed = 0;
      for (const url of rest) removed += index.removeUrl(url);
      if (removed < rest.length && !ctx.quiet) ctx.err.write(`index remove: ${rest.length - removed} of the URLs were not in the index\n`);
      const bytes = writeIndexFile(file, index);
      writeRecords(ctx.out, format, [{ ...summary(index, file, bytes), removed }]);
      return 0;
    }
    if (rest.length === 0) throw optionError('INPUT', 'at least one crawl input after FILE', undefined);
    checkOutput(file, rest, 'the index file');
    const engine = pipelineOf(ctx.values);
    await init();
    if (action === 'build') {
      const policy = policyOf(ctx.values);
      const sketchOptions = sketchOptionsOf(ctx.values);
      const content = contentOptionsOf(ctx.values);
      Object.assign(sketchOptions, content.sketch);
      const params = resolveSketchOptions(sketchOptions);
      const crawl = await sketchInputs(ctx, rest, sketchOptions, content.template ? { templates: content.template } : {});
      const index = new ResembleIndex(params, policy);
      await addSweep(index, crawl, engine);
      keepTemplates(ctx, index, crawl, content);
      const bytes = writeIndexFile(file, index);
      writeRecords(ctx.out, format, [summary(index, file, bytes)]);
      return 0;
    }
    const index = readIndexFile(file);
    const main = index.params.content === 'main';
    const content: ContentFlags = main ? contentOptionsOf({ ...ctx.values, content: 'main' }) : contentOptionsOf({ ...ctx.values, content: 'page' });
    const crawl = await sketchInputs(ctx, rest, sketchOptionsFor(index.params), main ? { templates: content.template, sites: index.templates } : {});
    const r = await addSweep(index, crawl, engine);
    keepTemplates(ctx, index, crawl, content);
    const bytes = writeIndexFile(file, index);
    writeRecords(ctx.out, format, [{ ...summary(index, file, bytes), added: r.count, identical: r.identical, lexical: r.lexical, shingle: r.shingle, joins: r.joins }]);
    return 0;
  },
};
