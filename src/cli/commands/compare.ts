import { ResembleError } from '../../errors.js';
import type { ReadError } from '../../graph/document.js';
import type { SkipEvent } from '../../io/options.js';
import { utf8Bytes, type Document } from '../../graph/document.js';
import { init } from '../../wasm/loader.js';
import { sketchMany, resemblance, containment, exactResemblance, exactContainment, shingleSet, resolveSketchOptions } from '../../sketch/index.js';
import { readSingleFile } from '../../io/crawl.js';
import { formatOf, READER_FLAGS, readerOptionsOf, SKETCH_FLAGS, SKETCH_USAGE, sketchOptionsOf } from '../args.js';
import type { Command, CommandContext } from '../command.js';
import { errorLine, openCrawl } from '../input.js';
import { writeRecords } from '../output.js';

async function fromFile(ctx: CommandContext, path: string): Promise<Document> {
  const say = (e: ReadError) => ctx.err.write(errorLine(e) + '\n');
  const onSkip = (s: SkipEvent) => ctx.err.write(`${s.location}: ${s.message ?? s.reason}\n`);
  for await (const doc of readSingleFile(path, { ...readerOptionsOf(ctx.values), links: false, onError: say, onSkip, onWarning: say })) return doc;
  throw new ResembleError('E_INPUT', `cannot compare ${path}: not a readable text file`);
}

/** Takes the context; returns documents A and B: two files, or two URLs looked up in the --crawl inputs. */
async function documentsOf(ctx: CommandContext): Promise<[Document, Document]> {
  const [a, b, ...extra] = ctx.positionals;
  if (b === undefined || extra.length > 0) {
    throw new ResembleError('E_OPTION', `expected two documents A and B, got ${ctx.positionals.length}`);
  }
  const crawl = ctx.values.crawl as string[] | undefined;
  if (!crawl) return [await fromFile(ctx, a), await fromFile(ctx, b)];
  const loaded = await openCrawl(ctx, crawl, { links: false });
  return [a, b].map((url) => {
    const id = loaded.graph.docId(url);
    if (id === undefined) throw new ResembleError('E_INPUT', `${url} is not a page of ${crawl.join(', ')}`);
    return loaded.documents[id];
  }) as [Document, Document];
}

/**
 * `resemble compare A B`: resemblance and containment both ways, estimated from the two sketches
 * (Broder §2) beside the exact values over the full shingle sets, so the estimate's error is visible.
 */
export const command: Command = {
  name: 'compare',
  summary: 'resemblance and containment of two documents, estimated from sketches and exact',
  usage: `Usage: resemble compare A B [--crawl INPUT]... [sketch flags]

A and B are files (HTML or text; charset from <meta>, else UTF-8), or with --crawl, URLs of pages
in the crawl INPUT (repeatable). Prints one record:
  a, b                                     the two documents (URLs; file: URLs for files)
  resemblance, containmentAB, containmentBA   estimated from the sketches
  exactResemblance, exactContainmentAB, exactContainmentBA   from the full shingle sets
  shinglesA, shinglesB                     distinct shingles in each
containmentAB is how much of A is in B: |S(A) ∩ S(B)| / |S(A)|.

Flags:
  --crawl INPUT         look A and B up as URLs in this crawl (folder, .warc[.gz] (.arc, .wacz), .jsonl[.gz])

${SKETCH_USAGE}`,
  options: { crawl: { type: 'string', multiple: true }, ...SKETCH_FLAGS, ...READER_FLAGS },
  async run(ctx) {
    const format = formatOf(ctx.values);
    const options = sketchOptionsOf(ctx.values);
    resolveSketchOptions(options);
    await init();
    const [a, b] = await documentsOf(ctx);
    const [x, y] = [utf8Bytes(a), utf8Bytes(b)];
    const set = sketchMany([x, y], options);
    const [sa, sb] = [set.get(0), set.get(1)];
    writeRecords(ctx.out, format, [{
      a: a.url,
      b: b.url,
      resemblance: resemblance(sa, sb),
      containmentAB: containment(sa, sb),
      containmentBA: containment(sb, sa),
      exactResemblance: exactResemblance(x, y, options),
      exactContainmentAB: exactContainment(x, y, options),
      exactContainmentBA: exactContainment(y, x, options),
      shinglesA: shingleSet(x, options).length,
      shinglesB: shingleSet(y, options).length,
    }]);
    return 0;
  },
};
