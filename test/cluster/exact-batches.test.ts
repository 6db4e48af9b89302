// The exact checks from the spill file shingle pages in batches on the worker pool: the values are
// those of each page shingled alone (shingleSet in page mode; the content sketch against the
// page's own table in content mode, as the input read again gives them), whatever the batch size,
// the worker count and a cache too small to keep a window (sets evicted are made again).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { shingleSet } from '../../src/advanced.js';
import { createPool } from '../../src/node.js';
import { utf8Bytes } from '../../src/graph/document.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { exactPairs, intersectionCount } from '../../src/cluster/exact-pairs.js';
import { sketchCrawl } from '../../src/stream/sketch-crawl.js';
import { tempDir } from '../io/fixtures.js';
import { writeInputs } from '../stream/fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const inputs = await writeInputs(dir);
const { documents } = await loadCrawl(inputs.jsonl, { links: false });
const n = documents.length;

// Pairs over the whole crawl, many sharing pages, in no particular order.
let state = 11;
const next = () => { state = (Math.imul(state, 1664525) + 1013904223) >>> 0; return state / 2 ** 32; };
const a = new Uint32Array(600), b = new Uint32Array(600);
for (let i = 0; i < a.length; i++) { a[i] = Math.floor(next() * n); b[i] = (a[i] + 1 + Math.floor(next() * 7)) % n; }

const same = (x: Float64Array, y: Float64Array, what: string) => assert.equal(Array.from(x), Array.from(y), what);

test('page mode: batched exact values equal each page shingled alone, for any batch, worker count and cache', async () => {
  const crawl = await sketchCrawl(inputs.jsonl, { sketch: { content: 'page' }, workers: 1, spillDir: dir });
  try {
    const sets = documents.map((d) => shingleSet(utf8Bytes(d)));
    const r = new Float64Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const x = sets[a[i]], y = sets[b[i]], s = intersectionCount(x, y);
      r[i] = s / (x.length + y.length - s);
    }
    for (const [workers, windowBytes, cacheBytes] of [[1, 4 << 20, 64 << 20], [2, 20 << 10, 64 << 20], [3, 8 << 10, 30 << 10], [2, 8 << 10, 0]]) {
      const got = await exactPairs(inputs.jsonl, a, b, { sketch: { content: 'page' }, spill: crawl.spill, workers, windowBytes, cacheBytes });
      same(got.resemblance, r, `${workers} workers, windows of ${windowBytes} bytes, cache ${cacheBytes}`);
      assert.ok(got.pages > 100 && got.pages <= n, `${got.pages} pages`);
    }
    // A pool cutting each window into batches of about 1 KiB holds most of them back until a
    // worker is free: the buffers the pages were read into must not be filled again before then.
    const pool = createPool({ workers: 2, batchBytes: 1024 });
    try {
      for (const windowBytes of [8 << 10, 64 << 10]) {
        const got = await exactPairs(inputs.jsonl, a, b, { sketch: { content: 'page' }, spill: crawl.spill, pool, windowBytes });
        same(got.resemblance, r, `a pool of small batches, windows of ${windowBytes} bytes`);
      }
    } finally {
      await pool.close();
    }
  } finally {
    crawl.spill?.remove();
  }
});

test('content mode: batched exact values equal those of the input read again', async () => {
  const crawl = await sketchCrawl(inputs.jsonl, { sketch: { content: 'main' }, workers: 1, spillDir: dir });
  try {
    const options = { sketch: { content: 'main' as const }, templates: crawl.templates };
    const reread = await exactPairs(inputs.jsonl, a, b, options);
    assert.ok(reread.resemblance.some((x) => x > 0.3), 'some pairs resemble');
    for (const [workers, windowBytes, cacheBytes] of [[2, 16 << 10, 64 << 20], [2, 8 << 10, 16 << 10]]) {
      const got = await exactPairs(inputs.jsonl, a, b, { ...options, spill: crawl.spill, workers, windowBytes, cacheBytes });
      same(got.resemblance, reread.resemblance, `resemblance, windows of ${windowBytes}`);
      same(got.containmentAB, reread.containmentAB, 'containment of a');
      same(got.containmentBA, reread.containmentBA, 'containment of b');
    }
  } finally {
    crawl.spill?.remove();
  }
});

test.after(cleanup);
test.run();
