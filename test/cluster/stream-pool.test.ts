// The candidate pairs of a crawl sketched on the worker pool are estimated on the same pool: the
// pair table, clusters and exact checks of nearDuplicatesOfCrawl, and the bytes `dups` writes, are
// the same for 1, 2 and 3 workers, on the sample (as a folder and as JSONL, in batches small
// enough that the pool starts) and on generated crawls, in content and page mode.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { init } from '../../src/index.js';
import { nearDuplicatesOfCrawl, type CrawlNearDuplicates } from '../../src/cluster/stream.js';
import type { SketchSet } from '../../src/sketch/sketch-set.js';
import { tempDir } from '../io/fixtures.js';
import { generatedCrawl, writeInputs } from '../stream/fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const inputs = await writeInputs(dir);
const generated = join(dir, 'generated.jsonl');
generatedCrawl(generated, 40, 11);

/** Everything nearDuplicatesOfCrawl decides, as plain data. */
function outcome(f: CrawlNearDuplicates): unknown {
  const p = f.nd.pairs;
  return {
    pairs: ['a', 'b', 'hits', 'shared', 'resemblance', 'containmentAB', 'containmentBA'].map((c) => Array.from(p[c as 'a'])),
    stats: f.nd.stats, clusters: JSON.parse(JSON.stringify(f.nd.clusters)), exactPairs: f.exactPairs, exactPages: f.exactPages,
  };
}

const crawls = { 'sample folder': inputs.folder, 'sample JSONL': inputs.jsonl, 'generated JSONL': generated } as const;
for (const [name, path] of Object.entries(crawls)) {
  for (const sketch of [{ content: 'main' as const }, { content: 'page' as const }]) {
    test(`${name}, content ${sketch.content}: the same pairs, clusters and exact checks for 1, 2 and 3 workers`, async () => {
      const one = await nearDuplicatesOfCrawl(path, { sketch, workers: 1, exactBand: 4 });
      assert.ok(one.nd.stats.candidatePairs > 100, `${one.nd.stats.candidatePairs} candidate pairs`);
      assert.not.ok((one.crawl.set as SketchSet).values.buffer instanceof SharedArrayBuffer, 'inline: rows in ordinary memory');
      const want = outcome(one);
      for (const workers of [2, 3]) {
        // small batches start the pool, whose workers then estimate the candidate pairs
        const found = await nearDuplicatesOfCrawl(path, { sketch, workers, exactBand: 4, batchBytes: 48 << 10 });
        assert.is(found.crawl.workers, workers, 'several batches start the pool');
        assert.ok((found.crawl.set as SketchSet).values.buffer instanceof SharedArrayBuffer, 'rows shared with the workers');
        assert.equal(outcome(found), want, `${workers} workers`);
      }
    });
  }
}

async function run(argv: string[]): Promise<string> {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) } });
  assert.is(code, 0, err);
  return out;
}

test('dups writes the same bytes for 1, 2 and 3 workers on a crawl of several batches', async () => {
  // about 10 MB: three 4 MiB batches, so --workers 2 and 3 sketch and estimate on the pool
  const big = join(dir, 'big.jsonl');
  generatedCrawl(big, 700, 5);
  assert.ok(statSync(big).size > 9 << 20, `${statSync(big).size} bytes`);
  const outs: Record<number, string> = {};
  for (const workers of [1, 2, 3]) {
    const file = join(dir, `dups-${workers}.jsonl`);
    await run(['dups', big, '--workers', String(workers), '--out', file]);
    outs[workers] = readFileSync(file, 'utf8');
  }
  assert.ok(outs[1].split('\n').length > 500, 'many clusters');
  assert.ok(outs[2] === outs[1], '2 workers: the same bytes');
  assert.ok(outs[3] === outs[1], '3 workers: the same bytes');
});

test.after(cleanup);
test.run();
