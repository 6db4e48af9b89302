import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { init, resolveSketchOptions, serializeSketchSet } from '../../index.js';
import { sketchCrawl } from '../../stream/sketch-crawl.js';
import { documentRows, keyRows, sizeRows } from '../../scale/rows.js';
import { openParquetFile } from '../../scale/parquet-file.js';
import type { ParquetSink } from '../../scale/parquet.js';
import { ResembleError } from '../../errors.js';
import { formatOf, READER_FLAGS, SKETCH_FLAGS, SKETCH_USAGE, sketchOptionsOf, stringOf } from '../args.js';
import type { Command } from '../command.js';
import { readOptionsFor, pipelineOf, readSummary, requireDocuments, requireInputs, startPipelineProgress } from '../input.js';
import { checkOutput, createRecordWriter, writeFileAtomic } from '../output.js';

/** Takes a 64-bit value; returns it as 16 lowercase hex digits (JSON numbers cannot hold 64 bits). */
export function hex64(v: bigint): string {
  return v.toString(16).padStart(16, '0');
}

/** `resemble sketch`: one sketch per document, as records, as the binary SketchSet file, or as the Parquet map side. */
export const command: Command = {
  name: 'sketch',
  summary: 'compute the shingle sketch of every document in a crawl (records, binary, or the Parquet map side)',
  usage: `Usage: resemble sketch INPUT... [--binary FILE] [--parquet DIR] [--workers N] [sketch flags]

INPUT is a wget mirror folder, .warc[.gz] (.arc, .wacz), .jsonl[.gz] or URL list, read as a stream
and sketched on all cores. Prints one record per document, in input order: {id, url, cardinality, values} where
values are the sketch's shingle values as 16-digit hex strings (ascending) and cardinality the
distinct shingles in the page (exact for mod/adaptive, a KMV estimate for min sketches of longer pages).

Flags:
  --binary FILE         write the SketchSet binary serialization (parameters in its header) to FILE;
                        the records then leave out values and map each id to its URL
  --parquet DIR         write the map side of the beyond-one-machine pipeline to DIR as Parquet (the
                        contract in sql/README.md): keys.parquet (key, doc), sizes.parquet (doc,
                        length, cardinality) and documents.parquet (doc, url, host, date, ip), batch by
                        batch (nothing held but the batch); then \`resemble plan --keys DIR/keys.parquet
                        --sizes DIR/sizes.parquet --dialect spark|trino|bigquery\` prints the SQL to run.
                        No records are printed; a summary record names the files
  --workers N           threads that sketch while the input is read (default: the available cores)

${SKETCH_USAGE}`,
  options: { binary: { type: 'string' }, parquet: { type: 'string' }, workers: { type: 'string' }, ...SKETCH_FLAGS, ...READER_FLAGS },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const options = sketchOptionsOf(ctx.values);
    const params = resolveSketchOptions(options);
    const binary = stringOf(ctx.values, 'binary');
    const parquet = stringOf(ctx.values, 'parquet');
    if (binary !== undefined) checkOutput(binary, ctx.positionals, '--binary');
    if (parquet !== undefined) for (const f of ['keys', 'sizes', 'documents']) checkOutput(join(parquet, `${f}.parquet`), ctx.positionals, '--parquet');
    if (parquet !== undefined && binary !== undefined) throw new ResembleError('E_OPTION', 'expected one of --binary and --parquet', { option: '--parquet' });
    if (parquet !== undefined && params.kind === 'adaptive') throw new ResembleError('E_OPTION', 'expected --kind min or mod with --parquet (the SQL estimates MIN_s and MOD_m sketches)', { option: '--kind' });
    const { workers } = pipelineOf({ workers: ctx.values.workers });
    requireInputs(ctx.positionals);
    await init();
    const out = createRecordWriter(ctx.out, format);
    let sinks: { keys: ParquetSink; sizes: ParquetSink; documents: ParquetSink } | undefined;
    if (parquet !== undefined) {
      try {
        mkdirSync(parquet, { recursive: true });
      } catch (e) {
        throw new ResembleError('E_IO', `cannot create ${parquet}: ${(e as Error).message}`, { path: parquet });
      }
      const meta = { metadata: { 'resemble.sketch': JSON.stringify({ ...params, seed: String(params.seed) }) } };
      sinks = {
        keys: openParquetFile(join(parquet, 'keys.parquet'), 'keys', meta),
        sizes: openParquetFile(join(parquet, 'sizes.parquet'), 'sizes', meta),
        documents: openParquetFile(join(parquet, 'documents.parquet'), 'documents', meta),
      };
    }
    const display = await startPipelineProgress(ctx, ctx.positionals);
    const urls: string[] = [];
    const dates: (string | undefined)[] = [];
    let crawl;
    try {
      crawl = await sketchCrawl(ctx.positionals, {
        sketch: options, workers, read: readOptionsFor(ctx), retain: binary !== undefined,
        onProgress: (p) => display.read(p),
        // Pages' URLs and dates up to the batch being written (dropped once written).
        onBatch: (docs) => { for (const d of docs) { urls.push(d.url); dates.push(d.date); } },
        onSketched: (set, first) => {
          const batchUrls = urls.splice(0, set.size), batchDates = dates.splice(0, set.size);
          if (sinks) {
            sinks.keys.write(keyRows(set, { docBase: first }));
            sinks.sizes.write(sizeRows(set, { docBase: first }));
            sinks.documents.write(documentRows(batchUrls.map((url, i) => ({ url, date: batchDates[i] })), { docBase: first }));
            return;
          }
          for (let i = 0; i < set.size; i++) {
            const record: Record<string, unknown> = { id: first + i, url: batchUrls[i], cardinality: set.cardinality[i] };
            if (binary === undefined) record.values = Array.from(set.values.subarray(set.offsets[i], set.offsets[i + 1]), hex64);
            out.write(record);
          }
        },
      });
    } finally {
      display.stop();
    }
    for (const e of crawl.sketchErrors) ctx.err.write(`${crawl.sources[e.index]}: ${e.message}\n`);
    if (!ctx.quiet) ctx.err.write(readSummary(crawl) + '\n');
    requireDocuments(crawl.pages, crawl.errors.length, ctx.positionals);
    if (sinks) {
      for (const s of Object.values(sinks)) s.finish();
      out.write({ parquet, documents: crawl.pages, keys: sinks.keys.rows, files: ['keys.parquet', 'sizes.parquet', 'documents.parquet'].map((f) => join(parquet!, f)) });
    }
    if (binary !== undefined) {
      writeFileAtomic(binary, serializeSketchSet(crawl.set));
      if (!ctx.quiet) ctx.err.write(`wrote ${crawl.set.size} sketches to ${binary}\n`);
    }
    out.end();
    return 0;
  },
};
