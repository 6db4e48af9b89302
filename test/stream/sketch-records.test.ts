// hex64Range (the record values of `resemble sketch`, read as two 32-bit words a value) against
// hex64 (BigInt's own hex) on the words' edges and seeded values, in arrays that start inside
// their buffer; and sketchCrawl's records against the SketchSet made by sketchMany.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hex64, hex64Range, sketchCrawl } from '../../src/stream/sketch-records.js';
import { sketchMany } from '../../src/sketch/sketch.js';
import { init } from '../../src/wasm/loader.js';
import { Rng } from '../helpers/random.js';

test('hex64Range: the hex64 of every value, edges of both words and seeded values', () => {
  const r = new Rng(39);
  const edges = [0n, 1n, 0xffn, 0xffffffffn, 0x100000000n, 0xffffffff00000000n, 0x0000000100000001n, 2n ** 64n - 1n, 0x8000000000000000n, 0x00000000deadbeefn, 0xdeadbeef00000000n];
  const all = [...edges, ...Array.from({ length: 2000 }, () => r.u64())];
  const buffer = new ArrayBuffer(8 * (all.length + 3));
  const values = new BigUint64Array(buffer, 16, all.length);
  values.set(all);
  assert.equal(hex64Range(values, 0, values.length), all.map(hex64));
  assert.equal(hex64Range(values, 5, 17), all.slice(5, 17).map(hex64));
  assert.equal(hex64Range(values, 7, 7), []);
  assert.is(hex64Range(values, 0, 1)[0], '0000000000000000');
  assert.is(hex64Range(values, 7, 8)[0], 'ffffffffffffffff');
});

test("sketchCrawl's records: the set's values as hex64, cardinalities as plain rounds them", async () => {
  await init();
  const pages = Array.from({ length: 12 }, (_, i) => `<p>${'word '.repeat(20 + i * 7)} page ${i} ${Array.from({ length: 30 + i }, (_, k) => `t${k * (i + 1)}`).join(' ')}</p>`);
  const lines = pages.map((html, i) => JSON.stringify({ url: `http://a.org/${i}`, text: html })).join('\n') + '\n';
  const { writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'resemble-sketch-records-'));
  try {
    const path = join(dir, 'pages.jsonl');
    writeFileSync(path, lines);
    const { records } = await sketchCrawl(path, { workers: 1 });
    const set = sketchMany(pages);
    assert.is(records.length, pages.length);
    for (let i = 0; i < pages.length; i++) {
      const want = Array.from(set.values.subarray(set.offsets[i], set.offsets[i + 1]), hex64);
      assert.equal(records[i].values, want, `page ${i}`);
      const estimated = set.offsets[i + 1] - set.offsets[i] >= set.params.s;
      assert.is(records[i].estimated, estimated, `page ${i}`);
      assert.is(records[i].distinctShingles, estimated ? Math.round(set.cardinality[i]) : set.cardinality[i], `page ${i}`);
      assert.is(records[i].url, `http://a.org/${i}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
