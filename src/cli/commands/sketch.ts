import { utf8Bytes } from '../../graph/document.js';
import { init, resolveSketchOptions, serializeSketchSet, sketchMany } from '../../index.js';
import { formatOf, READER_FLAGS, SKETCH_FLAGS, SKETCH_USAGE, sketchOptionsOf, stringOf } from '../args.js';
import type { Command } from '../command.js';
import { openCrawl } from '../input.js';
import { checkOutput, createRecordWriter, writeFileAtomic } from '../output.js';

/** Takes a 64-bit value; returns it as 16 lowercase hex digits (JSON numbers cannot hold 64 bits). */
export function hex64(v: bigint): string {
  return v.toString(16).padStart(16, '0');
}

/** `resemble sketch`: one sketch per document, as records or as the binary SketchSet file. */
export const command: Command = {
  name: 'sketch',
  summary: 'compute the shingle sketch of every document in a crawl',
  usage: `Usage: resemble sketch INPUT... [--binary FILE] [sketch flags]

INPUT is a wget mirror folder, .warc[.gz], .jsonl[.gz] or URL list. Prints one record per
document, in input order: {id, url, cardinality, values} where values are the sketch's shingle
values as 16-digit hex strings (ascending) and cardinality the distinct shingles in the page
(exact for mod/adaptive, a KMV estimate for min sketches of longer pages).

Flags:
  --binary FILE         write the SketchSet binary serialization (parameters in its header) to FILE;
                        the records then leave out values and map each id to its URL

${SKETCH_USAGE}`,
  options: { binary: { type: 'string' }, ...SKETCH_FLAGS, ...READER_FLAGS },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const options = sketchOptionsOf(ctx.values);
    resolveSketchOptions(options);
    const binary = stringOf(ctx.values, 'binary');
    if (binary !== undefined) checkOutput(binary, ctx.positionals, '--binary');
    await init();
    const crawl = await openCrawl(ctx, ctx.positionals, { links: false, label: 'reading' });
    const set = sketchMany(crawl.documents.map(utf8Bytes), options);
    for (const e of set.errors) ctx.err.write(`${crawl.documents[e.index].source ?? crawl.documents[e.index].url}: ${e.message}\n`);
    if (binary !== undefined) {
      writeFileAtomic(binary, serializeSketchSet(set));
      if (!ctx.quiet) ctx.err.write(`wrote ${set.size} sketches to ${binary}\n`);
    }
    const out = createRecordWriter(ctx.out, format);
    for (let i = 0; i < set.size; i++) {
      const record: Record<string, unknown> = { id: i, url: crawl.documents[i].url, cardinality: set.cardinality[i] };
      if (binary === undefined) record.values = Array.from(set.values.subarray(set.offsets[i], set.offsets[i + 1]), hex64);
      out.write(record);
    }
    out.end();
    return 0;
  },
};
