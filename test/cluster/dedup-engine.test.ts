// dedup output ≡ input minus the drop list, one page kept per cluster; and the DuckDB engine gives
// the same clusters as the in-memory one, from the CLI, on the sample and on a generated crawl.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { init } from '../../src/index.js';
import { nearDuplicatesOfCrawl } from '../../src/cluster/stream.js';
import { tempDir } from '../io/fixtures.js';
import { generatedCrawl, SAMPLE, writeInputs } from '../stream/fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const inputs = await writeInputs(dir);
const generated = join(dir, 'generated.jsonl');
generatedCrawl(generated);

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  return { code, out, err };
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '');

for (const keep of ['first', 'longest', 'newest'] as const) {
  test(`dedup --keep ${keep}: output is the input minus the drop list, in order, one page per cluster`, async () => {
    const clean = join(dir, `clean-${keep}.jsonl`), drops = join(dir, `drops-${keep}.jsonl`);
    const r = await run(['dedup', inputs.jsonl, '--keep', keep, '--out', clean, '--drop-list', drops]);
    assert.is(r.code, 0, r.err);
    const input = lines(inputs.jsonl), output = lines(clean);
    const dropped = lines(drops).map((l) => JSON.parse(l) as { id: string; duplicates: string; kind: string; resemblance: number });
    const droppedIds = new Set(dropped.map((d) => d.id));
    assert.ok(dropped.length > 100, `${dropped.length} dropped`);
    assert.is(droppedIds.size, dropped.length, 'each page dropped once');
    // Line for line: the input without the dropped records, nothing rewritten.
    assert.equal(output, input.filter((l) => !droppedIds.has(JSON.parse(l).url)));
    const kept = new Set(output.map((l) => JSON.parse(l).url));
    for (const d of dropped) {
      assert.ok(kept.has(d.duplicates), `${d.id} duplicates a kept page`);
      assert.ok(['identical', 'lexical', 'shingle', 'near'].includes(d.kind));
    }
    // One kept page per cluster of dups, by the rule.
    const dups = await run(['dups', inputs.jsonl, '--quiet']);
    const size = new Map(input.map((l) => { const o = JSON.parse(l); return [o.url as string, Buffer.byteLength(o.html)]; }));
    for (const c of dups.out.trim().split('\n').map((l) => JSON.parse(l) as { members: { url: string }[] })) {
      const inCluster = c.members.map((m) => m.url).filter((u) => kept.has(u));
      assert.is(inCluster.length, 1, `cluster of ${c.members[0].url}: ${inCluster.length} kept`);
      if (keep === 'longest') assert.is(size.get(inCluster[0]), Math.max(...c.members.map((m) => size.get(m.url)!)));
      if (keep !== 'longest') assert.is(inCluster[0], c.members.map((m) => m.url).sort((a, b) => input.findIndex((l) => JSON.parse(l).url === a) - input.findIndex((l) => JSON.parse(l).url === b))[0]);
    }
  });
}

test('dedup of a folder writes JSONL records of the kept pages; bad flags exit 2', async () => {
  const clean = join(dir, 'clean-folder.jsonl');
  const r = await run(['dedup', SAMPLE, '--out', clean]);
  assert.is(r.code, 0, r.err);
  const records = lines(clean).map((l) => JSON.parse(l) as { url: string; html?: string; text?: string });
  assert.ok(records.length > 50 && records.every((x) => typeof x.url === 'string' && typeof (x.html ?? x.text) === 'string'));
  assert.match(r.err, /dedup: kept \d+ of \d+ pages/);
  for (const argv of [['--keep', 'oldest'], ['--format', 'csv']]) assert.is((await run(['dedup', SAMPLE, '--quiet', ...argv])).code, 2, argv.join(' '));
});

for (const [name, path] of [['sample', SAMPLE], ['generated crawl', generated]] as const) {
  test(`--engine duckdb gives the clusters of the in-memory engine: ${name}`, async () => {
    const memory = await nearDuplicatesOfCrawl(path, { workers: 1 });
    const duck = await nearDuplicatesOfCrawl(path, { workers: 1, engine: 'duckdb', engineOptions: { memoryLimit: '256MB', tempDir: dir } });
    assert.ok(memory.nd.clusters.count >= 10, `${memory.nd.clusters.count} clusters`);
    assert.equal(Array.from(duck.nd.clusters.clusterOf), Array.from(memory.nd.clusters.clusterOf));
    assert.equal(Array.from(duck.nd.clusters.via), Array.from(memory.nd.clusters.via));
    assert.is(duck.nd.stats.candidatePairs, memory.nd.stats.candidatePairs);
    assert.is(duck.exactPairs, memory.exactPairs);
  });
}

test('dups --engine duckdb from the command line prints the in-memory output', async () => {
  const a = await run(['dups', generated, '--quiet']);
  const b = await run(['dups', generated, '--quiet', '--engine', 'duckdb', '--memory-limit', '256MB', '--temp-dir', dir]);
  assert.is(b.code, 0, b.err);
  assert.ok(a.out.length > 100);
  assert.is(b.out, a.out);
});

test('sketch --parquet writes the map side; the SQL pipeline over it finds the in-memory pairs', async () => {
  const out = join(dir, 'map');
  const r = await run(['sketch', inputs.jsonl, '--parquet', out, '--content', 'page', '--workers', '2']);
  assert.is(r.code, 0, r.err);
  const summary = JSON.parse(r.out);
  const docs = lines(inputs.jsonl).length;
  assert.is(summary.documents, docs);
  const { runPipeline } = await import('../../src/scale/pipeline.js');
  const sql = await runPipeline({ keys: join(out, 'keys.parquet'), sizes: join(out, 'sizes.parquet'), memoryLimit: '256MB', tempDir: dir, documents: docs });
  const { loadCrawl } = await import('../../src/io/crawl.js');
  const { sketchMany } = await import('../../src/index.js');
  const { nearDuplicates } = await import('../../src/cluster/near-duplicates.js');
  const { utf8Bytes } = await import('../../src/graph/document.js');
  const crawl = await loadCrawl(inputs.jsonl, { links: false });
  const nd = nearDuplicates(sketchMany(crawl.documents.map(utf8Bytes)), { equivalence: 'none', prefix: 0 });
  assert.ok(nd.pairs.count > 100);
  assert.equal(Array.from(sql.pairs.a), Array.from(nd.pairs.a));
  assert.equal(Array.from(sql.pairs.b), Array.from(nd.pairs.b));
  const plan = await run(['plan', '--keys', join(out, 'keys.parquet'), '--sizes', join(out, 'sizes.parquet'), '--dialect', 'spark']);
  assert.is(plan.code, 0);
  assert.match(plan.out, `parquet.\`${join(out, 'keys.parquet')}\``);
});

test.after(cleanup);
test.run();
