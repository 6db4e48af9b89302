// `dups --from-parquet DIR`: the reduce side over the Parquet shards `sketch --parquet` wrote. The
// sketch, content and reading options are the shards' own; the clustering flags apply as in dups.
import { ResembleError } from '../errors.js';
import { plainClusterRecord } from '../cluster/records.js';
import type { NearDuplicateOptions } from '../cluster/near-duplicates.js';
import { nearDuplicatesFromParquet } from '../scale/from-parquet.js';
import { READER_FLAGS, SKETCH_FLAGS, type OutputFormat } from './args.js';
import type { CommandContext } from './command.js';
import { CONTENT_FLAGS } from './content.js';
import { pipelineOf } from './input.js';
import { createRecordWriter } from './output.js';
import { count } from './progress.js';
import { init } from '../index.js';

/** Flags that set the map side, which the shards fixed: refused with --from-parquet. */
const MAP_FLAGS = [...Object.keys(SKETCH_FLAGS), ...Object.keys(CONTENT_FLAGS), ...Object.keys(READER_FLAGS), 'exact-band', 'k', 'super-shingle'];

/** Takes the command context, the shard folder, the clustering options and the format; prints dups' records for the shards. */
export async function dupsFromParquet(ctx: CommandContext, dir: string, cluster: NearDuplicateOptions, format: OutputFormat): Promise<number> {
  if (ctx.positionals.length > 0) throw new ResembleError('E_OPTION', `expected no INPUT with --from-parquet (got ${ctx.positionals[0]})`, { option: '--from-parquet' });
  for (const f of MAP_FLAGS) {
    if (ctx.values[f] !== undefined) {
      throw new ResembleError('E_OPTION', `expected no --${f} with --from-parquet: ${f === 'exact-band' ? 'exact checks read the pages, which the shards do not hold' : 'the shards were sketched with their own options (shard.json)'}`, { option: `--${f}` });
    }
  }
  if (ctx.values.engine === undefined) throw new ResembleError('E_OPTION', 'expected --engine duckdb or --engine spark with --from-parquet', { option: '--engine' });
  const { workers, engine, engineOptions } = pipelineOf(ctx.values, ['duckdb', 'spark']);
  await init();
  const started = performance.now();
  const found = await nearDuplicatesFromParquet(dir, { engine: engine as 'duckdb' | 'spark', engineOptions, cluster, ...(workers !== undefined ? { workers } : {}) });
  const c = found.nd.clusters, set = found.sketches;
  try {
    const out = createRecordWriter(ctx.out, format);
    for (let i = 0; i < c.count; i++) out.writePlain(plainClusterRecord(c, i, found.urls, set));
    out.end();
  } finally {
    found.close();
  }
  if (!ctx.quiet) {
    const s = found.nd.stats, pages = found.set.pages;
    ctx.err.write(`dups: ${count(c.count)} clusters of near-duplicates hold ${count(c.stats.clusteredDocuments)} of ${count(pages)} pages, from ${count(found.set.shards.length)} Parquet shards; `
      + `${count(s.candidatePairs)} pairs of pages sharing sketch values compared on ${engine}, ${count(c.stats.acceptedPairs)} similar enough to join; none checked on their full shingle sets (the shards hold sketches, not pages); ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  }
  return 0;
}
