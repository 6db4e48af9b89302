// The index file's bytes are pinned: a change to what `save` writes (its sections, their order, the
// postings' layout, the checksum) fails here, so the format cannot drift without a new version.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ResembleIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { loadIndex, saveIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { init, sketchMany } from '../../src/index.js';

await init();

const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Texts of four topics, each in a few variants, and two unrelated ones. */
function texts(from: number, count: number): string[] {
  const out: string[] = [];
  for (let i = from; i < from + count; i++) {
    const topic = i % 4;
    const words = Array.from({ length: 120 }, (_, k) => `t${topic}w${k}`);
    for (let k = 0; k < i % 5; k++) words[(k * 37 + i) % 120] = `edit${i}x${k}`;
    out.push(i % 11 === 10 ? `unrelated ${i} ` + words.map((w) => w + i).join(' ') : words.join(' '));
  }
  return out;
}

function built(): ResembleIndex {
  const first = texts(0, 30);
  const set = sketchMany(first, { w: 4, s: 64 });
  const index = new ResembleIndex(set.params, { threshold: 0.6 });
  index.insertMany(set, { keys: first.map((_, i) => (i === 5 ? undefined : `https://example.org/${i}`)), dates: first.map((_, i) => (i % 3 === 0 ? `2001-0${1 + (i % 9)}-01T00:00:00.000Z` : undefined)) });
  index.remove('https://example.org/7');
  // a second sweep, and single inserts: the hash tier of the postings
  const second = texts(30, 12);
  index.insertMany(sketchMany(second, set.params), { keys: second.map((_, i) => `https://example.org/${30 + i}`) });
  index.insert('https://example.org/single', sketchMany(['t1w0 t1w1 t1w2 t1w3 t1w4 t1w5 t1w6 t1w7'], set.params).get(0), { date: 981000000000 });
  index.templates.set('http://site.example/', BigUint64Array.of(3n, 1n << 63n, 12345678901234567n));
  index.templates.set('http://bare.example/', undefined);
  return index;
}

test('save writes the pinned bytes', () => {
  const bytes = saveIndex(built());
  assert.is(bytes.length, 43916);
  assert.is(sha(bytes), '840655cbab517786fb402c984f792483e486729ebf10bacecfac2754253d1eec');
});

test('load then save gives the same bytes (a file written by an earlier version too)', () => {
  const bytes = saveIndex(built());
  assert.is(sha(saveIndex(loadIndex(bytes))), sha(bytes));
  const v1 = new Uint8Array(readFileSync(fileURLToPath(new URL('../fixtures/index-v1/index.rsx', import.meta.url))));
  assert.is(sha(saveIndex(loadIndex(v1))), sha(v1));
});

test.run();
