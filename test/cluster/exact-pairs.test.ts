// The exact checks read back from the spill file, shingled one page at a time on the calling thread
// or many at a time on a worker pool (in windows, through the shingle-set cache), and read again
// from the input: the same exact values, in page and content mode, and the values of the slow
// reference (full shingle sets of the pages in memory).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init } from '../../src/index.js';
import { shingleSet } from '../../src/advanced.js';
import { utf8Bytes } from '../../src/graph/document.js';
import { loadCrawl } from '../../src/io/crawl.js';
import { exactPairs, intersectionCount } from '../../src/cluster/exact-pairs.js';
import { sketchCrawl } from '../../src/stream/sketch-crawl.js';
import { createPool } from '../../src/stream/pool-node.js';
import { tempDir } from '../io/fixtures.js';
import { rng } from '../helpers/random.js';
import { writeInputs } from '../stream/fixtures.js';

await init();
const { dir, cleanup } = tempDir();
const inputs = await writeInputs(dir);

for (const content of ['page', 'main'] as const) {
  test(`${content}: exact values from the spill file on a pool equal those shingled inline and those of the input read again`, async () => {
    const sketch = { content };
    const s = await sketchCrawl(inputs.jsonl, { sketch, workers: 1, spillDir: dir });
    try {
      const n = s.urls.length, r = rng(content === 'page' ? 5 : 6);
      // random pairs, and pairs of neighbours (the sample's copies often sit side by side)
      const a: number[] = [], b: number[] = [];
      for (let i = 0; i < 600; i++) {
        const x = Math.floor(r() * n);
        a.push(x); b.push(i % 2 ? Math.floor(r() * n) : Math.min(n - 1, x + 1));
      }
      const pa = Uint32Array.from(a), pb = Uint32Array.from(b);
      const inline = await exactPairs(inputs.jsonl, pa, pb, { sketch, spill: s.spill, templates: s.templates });
      const reread = await exactPairs(inputs.jsonl, pa, pb, { sketch, templates: s.templates });
      const pool = createPool({ workers: 2 });
      try {
        for (const windowBytes of [4 << 20, 50_000]) {
          let progress = 0;
          const pooled = await exactPairs(inputs.jsonl, pa, pb, { sketch, spill: s.spill, templates: s.templates, pool, windowBytes, onProgress: (d) => { progress = d; } });
          assert.equal(Array.from(pooled.resemblance), Array.from(inline.resemblance), `resemblance, windows of ${windowBytes} bytes`);
          assert.equal(Array.from(pooled.containmentAB), Array.from(inline.containmentAB));
          assert.equal(Array.from(pooled.containmentBA), Array.from(inline.containmentBA));
          assert.is(pooled.pages, inline.pages);
          assert.is(progress, inline.pages, 'progress counts every page once');
        }
      } finally {
        await pool.close();
      }
      assert.equal(Array.from(reread.resemblance), Array.from(inline.resemblance));
      const high = Array.from(inline.resemblance).filter((x) => x > 0.5 && x < 1).length;
      assert.ok(high > 0, 'some pairs are near-duplicates of different bytes');
      if (content === 'page') {
        // the slow reference: full shingle sets of the pages in memory
        const { documents } = await loadCrawl(inputs.jsonl, { links: false });
        for (let i = 0; i < pa.length; i += 7) {
          const x = shingleSet(utf8Bytes(documents[pa[i]])), y = shingleSet(utf8Bytes(documents[pb[i]]));
          const shared = intersectionCount(x, y);
          assert.ok(Math.abs(inline.resemblance[i] - shared / (x.length + y.length - shared)) < 1e-12, `pair ${pa[i]} ${pb[i]}`);
        }
      }
    } finally {
      s.spill?.remove();
    }
  });
}

test.after(cleanup);
test.run();
