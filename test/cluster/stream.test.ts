// Streaming equals batch: for every input kind and for 1, 2 and 3 workers, the streamed sketches
// are bit-identical to sketchMany over the whole crawl in memory, in input order, and the streamed
// clusters (with their exact checks read back from the spill file) equal the batch clusters with
// every pair near the threshold checked from the pages in memory.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany } from '../../src/index.js';
import { shingleSet } from '../../src/advanced.js';
import { utf8Bytes } from '../../src/graph/document.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { nearDuplicates } from '../../src/cluster/near-duplicates.js';
import { KIND_NEAR } from '../../src/cluster/equivalence.js';
import { intersectionCount } from '../../src/cluster/exact-pairs.js';
import { nearDuplicatesOfCrawl } from '../../src/cluster/stream.js';
import { sketchCrawl } from '../../src/stream/sketch-crawl.js';
import { tempDir } from '../io/fixtures.js';
import { writeInputs } from '../stream/fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const inputs = await writeInputs(dir);
const kinds = { folder: inputs.folder, jsonl: inputs.jsonl, 'jsonl.gz': inputs.jsonlGz, 'warc.gz': inputs.warc, urls: inputs.urls } as const;

const columns = ['values', 'offsets', 'cardinality', 'tokens', 'modulusLog2', 'rawFp', 'lexicalFp', 'shingleFp'] as const;

for (const [kind, path] of Object.entries(kinds)) {
  test(`${kind}: streamed sketches equal sketchMany over the loaded crawl, for 1, 2 and 3 workers`, async () => {
    const { documents } = await loadCrawl(path, { links: false });
    const batch = sketchMany(documents.map(utf8Bytes));
    assert.ok(documents.length >= (kind === 'urls' ? 20 : 100), `${documents.length} documents`);
    for (const workers of kind === 'folder' || kind === 'jsonl' ? [1, 2, 3] : [1, 3]) {
      let batches = 0;
      // Small batches: many of them in flight, finishing out of order on several workers.
      const s = await sketchCrawl(path, { workers, batchBytes: 48 << 10, onBatch: () => batches++ });
      assert.ok(batches > (kind === 'urls' ? 0 : 5), `${batches} batches`);
      assert.equal(s.urls, documents.map((d) => d.url), 'DocIds are read positions');
      assert.equal(s.sources, documents.map((d) => d.source ?? d.url));
      assert.equal(Array.from(s.sizes), documents.map((d) => d.bytes.length));
      for (const c of columns) assert.equal(Array.from(s.set[c] as ArrayLike<unknown>), Array.from(batch[c] as ArrayLike<unknown>), `${kind} ${workers} workers: ${c}`);
      if (kind === 'urls') continue;
      assert.is(s.workers, workers, 'several batches start the pool');
    }
  });
}

for (const [kind, path] of Object.entries(kinds).filter(([k]) => k !== 'urls')) {
  test(`${kind}: streamed clusters equal batch clusters with every near pair checked exactly`, async () => {
    const found = await nearDuplicatesOfCrawl(path, { workers: 2, exactBand: 4 });
    const { documents } = await loadCrawl(path, { links: false });
    const nd = nearDuplicates(sketchMany(documents.map(utf8Bytes)));
    const idx = nd.uncertain(4);
    const estimates = Float64Array.from(nd.pairs.resemblance);
    assert.is(found.nearPairs, idx.length);
    assert.ok(found.exactPairs > 0 && found.exactPairs <= idx.length, `${found.exactPairs} of ${idx.length} checked`);
    assert.equal(Array.from(found.nd.pairs.a), Array.from(nd.pairs.a));
    // Exact values straight from the pages in memory (the reference), not from the spill file.
    const sets = new Map<number, BigUint64Array>();
    const get = (d: number) => { let x = sets.get(d); if (!x) sets.set(d, (x = shingleSet(utf8Bytes(documents[d])))); return x; };
    const r: number[] = [], cab: number[] = [], cba: number[] = [];
    for (const i of idx) {
      const x = get(nd.pairs.a[i]), y = get(nd.pairs.b[i]);
      const shared = intersectionCount(x, y);
      r.push(shared / (x.length + y.length - shared)); cab.push(shared / x.length); cba.push(shared / y.length);
    }
    // the reference checks every pair near the threshold; the pipeline only those that can still change a cluster
    const settled = nd.settle(idx, { resemblance: r, containmentAB: cab, containmentBA: cba });
    assert.equal(Array.from(found.nd.clusters.clusterOf), Array.from(settled.clusterOf));
    let exact = 0;
    idx.forEach((i, k) => {
      const v = found.nd.pairs.resemblance[i];
      assert.ok(v === r[k] || v === estimates[i], `pair ${i}: ${v} is neither its exact value ${r[k]} nor its estimate ${estimates[i]}`);
      if (v === r[k] && v !== estimates[i]) exact++;
    });
    assert.ok(exact > 0 && exact <= found.exactPairs, `${exact} exact values written`);
    // every member joins through a pair over the threshold (an unchecked near pair is no evidence)
    const c = found.nd.clusters;
    for (let d = 0; d < c.documents; d++) if (c.via[d] >= 0 && c.kind[d] === KIND_NEAR) assert.ok(c.resemblance[d] >= 0.5, `doc ${d} joins at ${c.resemblance[d]}`);
    assert.ok(found.nd.clusters.count >= 30, `${found.nd.clusters.count} clusters`);
  });
}

test('the exact pass reads the input again when there is no spill file, with the same result', async () => {
  const spilled = await nearDuplicatesOfCrawl(inputs.jsonl, { workers: 1, exactBand: 4 });
  const reread = await nearDuplicatesOfCrawl(inputs.jsonl, { workers: 1, exactBand: 4, spillDir: false });
  assert.ok(spilled.exactPairs > 0, 'the sample has pairs near the threshold');
  assert.is(reread.exactPairs, spilled.exactPairs);
  assert.equal(Array.from(reread.nd.pairs.resemblance), Array.from(spilled.nd.pairs.resemblance));
  assert.equal(Array.from(reread.nd.clusters.clusterOf), Array.from(spilled.nd.clusters.clusterOf));
});

test.after(cleanup);
test.run();
