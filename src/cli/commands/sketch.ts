import { join } from 'node:path';
import { init } from '../../wasm/loader.js';
import { resolveSketchOptions, serializeSketchSet } from '../../sketch/index.js';
import { sketchCrawl } from '../../stream/sketch-records.js';
import { parseShard, SHARD_TABLES, sketchToParquet } from '../../scale/shards.js';
import { ResembleError } from '../../errors.js';
import { CONTENT_FLAGS, CONTENT_USAGE, contentOptionsOf } from '../content.js';
import { formatOf, READER_FLAGS, SKETCH_FLAGS, SKETCH_USAGE, sketchOptionsOf, stringOf } from '../args.js';
import type { Command } from '../command.js';
import { cliReadOptions, readOptionsFor, pipelineOf, readSummary, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
import { checkOutput, createRecordWriter, writeFileAtomic } from '../output.js';

export { hex64 } from '../../stream/sketch-records.js';

/** `resemble sketch`: one sketch per document, as records, as the binary SketchSet file, or as the Parquet map side. */
export const command: Command = {
  name: 'sketch',
  summary: 'compute the shingle sketch of every document in a crawl (records, binary, or the Parquet map side)',
  usage: `Usage: resemble sketch INPUT... [--binary FILE] [--parquet DIR [--shard I/N]] [--workers N] [sketch flags]

INPUT is a wget mirror folder, .warc[.gz] (.arc, .wacz), .jsonl[.gz] or URL list, read as a stream
and sketched on all cores. Prints one record per document, in input order (sketch records, version 2):
{id, url, distinctShingles, estimated, values}: values are the sketch's shingle values as 16-digit
hex strings (ascending); distinctShingles the page's distinct shingles, counted (estimated false) or,
for a min sketch of a page with s shingles or more, estimated from it and rounded (estimated true).

Flags:
  --binary FILE         write the SketchSet binary serialization (parameters in its header) to FILE;
                        the records then leave out values and map each id to its URL
  --parquet DIR         write the map side of dups to DIR as Parquet (the contract in sql/README.md):
                        keys.parquet (key, doc), sizes.parquet (doc, length, cardinality),
                        pages.parquet (fingerprints, tokens) and documents.parquet (doc, url, host,
                        date, ip), batch by batch, then shard.json; the sketches are those dups makes
                        (content main by default, the content flags of dups apply). Then \`resemble dups
                        --from-parquet DIR --engine duckdb|spark\` clusters them, and \`resemble plan
                        --keys DIR/keys.parquet --sizes DIR/sizes.parquet --dialect spark|trino|bigquery\`
                        prints the SQL. No records are printed; a summary record names the files
  --shard I/N           with --parquet: write shard I of N (1 ≤ I ≤ N) to DIR/shard-I-of-N/: the pages
                        of one host in N, chosen by a hash of the host, so each site's template is
                        learnt from its own pages; every page keeps its DocId in the whole crawl, and
                        the N shards' rows are one run's. Each shard reads the whole input. A shard
                        already in DIR is an error (remove it to write it again)
  --workers N           threads that sketch while the input is read (default: the available cores)

${SKETCH_USAGE}

The records sketch whole pages (--content page) unless a content flag is given; with one, and with
--parquet, the default is main, as dups sketches:
${CONTENT_USAGE}`,
  options: { binary: { type: 'string' }, parquet: { type: 'string' }, shard: { type: 'string' }, workers: { type: 'string' }, ...SKETCH_FLAGS, ...CONTENT_FLAGS, ...READER_FLAGS },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const options = sketchOptionsOf(ctx.values);
    const binary = stringOf(ctx.values, 'binary');
    const parquet = stringOf(ctx.values, 'parquet');
    const shardText = stringOf(ctx.values, 'shard');
    if (shardText !== undefined && parquet === undefined) throw new ResembleError('E_OPTION', 'expected --parquet DIR with --shard', { option: '--shard' });
    const contentFlags = Object.keys(CONTENT_FLAGS).filter((f) => ctx.values[f] !== undefined);
    if (binary !== undefined) checkOutput(binary, ctx.positionals, '--binary');
    if (parquet !== undefined && binary !== undefined) throw new ResembleError('E_OPTION', 'expected one of --binary and --parquet', { option: '--parquet' });
    // records sketch whole pages unless a content flag says otherwise; the Parquet map side is dups's (content 'main')
    const content = parquet !== undefined || contentFlags.length > 0 ? contentOptionsOf(ctx.values) : undefined;
    if (content) Object.assign(options, content.sketch);
    const params = resolveSketchOptions(options);
    if (parquet !== undefined && params.kind === 'adaptive') throw new ResembleError('E_OPTION', 'expected --kind min or mod with --parquet (the SQL estimates MIN_s and MOD_m sketches)', { option: '--kind' });
    const shard = shardText === undefined ? undefined : parseShard(shardText);
    if (parquet !== undefined && !shard) for (const f of [...SHARD_TABLES, 'shard']) checkOutput(join(parquet, f === 'shard' ? 'shard.json' : `${f}.parquet`), ctx.positionals, '--parquet');
    const { workers } = pipelineOf({ workers: ctx.values.workers });
    requireInputs(ctx.positionals);
    await init();
    const out = createRecordWriter(ctx.out, format);
    const display = await startPipelineProgress(ctx, ctx.positionals);
    if (parquet !== undefined) {
      let written;
      try {
        written = await sketchToParquet(ctx.positionals, parquet, {
          sketch: options, workers, read: readOptionsFor(ctx), onProgress: (p) => display.read(p),
          ...(content?.template ? { templates: content.template } : {}), ...(shard ? { shard } : {}),
        });
      } finally {
        display.stop();
      }
      const crawl = written.crawl;
      for (const e of crawl.sketchErrors) ctx.err.write(`${crawl.sources[e.index]}: ${e.message}\n`);
      if (!ctx.quiet) ctx.err.write(readSummary(crawl) + '\n');
      requireDocuments(crawl.pages, crawl.errors.length, ctx.positionals);
      const m = written.manifest;
      out.write({ parquet: written.path, shard: `${m.shard.index}/${m.shard.count}`, pages: m.pages, documents: m.documents, keys: m.keys, files: [...SHARD_TABLES.map((t) => join(written.path, `${t}.parquet`)), join(written.path, 'shard.json')] });
      out.end();
      return 0;
    }
    let done;
    try {
      done = await sketchCrawl(ctx.positionals.length === 1 ? ctx.positionals[0] : { paths: ctx.positionals }, {
        sketch: options, workers, ...cliReadOptions(ctx), values: binary === undefined, keepSet: binary !== undefined,
        ...(content?.template ? { templates: content.template } : {}),
        onProgress: (p) => display.read(p), onRecord: (r) => out.write(r),
      });
    } finally {
      display.stop();
    }
    if (!ctx.quiet) ctx.err.write(readSummary({ urls: { length: done.summary.pages } as string[], bytes: done.summary.bytes, errors: { length: done.summary.errors } as unknown[], skipped: done.summary.skipped }) + '\n');
    requireDocuments(done.summary.pages, done.summary.errors, ctx.positionals);
    if (binary !== undefined && done.set) {
      writeFileAtomic(binary, serializeSketchSet(done.set));
      if (!ctx.quiet) ctx.err.write(`wrote ${done.set.size} sketches to ${binary}\n`);
    }
    out.end();
    return 0;
  },
};
