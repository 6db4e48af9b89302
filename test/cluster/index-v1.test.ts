// An index file written by the library before the two-tier postings (format version 1, kept
// unchanged) loads, answers as it did, and takes new documents.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadIndex, saveIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { INDEX_VERSION } from '../../src/cluster/resemble-index/format.js';
import { init, sketchMany } from '../../src/index.js';
import { queryDoc } from './helpers.js';

await init();
const dir = fileURLToPath(new URL('../fixtures/index-v1/', import.meta.url));
const bytes = new Uint8Array(readFileSync(`${dir}index.rsx`));
const expected = JSON.parse(readFileSync(`${dir}expected.json`, 'utf8')) as { docs: string[]; clusters: number[][]; hits: [number, string, number][][] };

test('a version 1 file from before loads and answers as it did', () => {
  assert.is(INDEX_VERSION, 1);
  const index = loadIndex(bytes);
  assert.is(index.size, expected.docs.length);
  assert.ok(index.isRemoved(4));
  assert.equal(index.clusters().map((m) => Array.from(m)), expected.clusters);
  assert.equal([0, 3, 7].map((d) => queryDoc(index, d).map((h) => [h.doc, h.key, h.resemblance])), expected.hits);
  assert.is(index.options.threshold, 0.6);
});

test('it takes new documents by key, and saves and loads again', () => {
  const index = loadIndex(bytes);
  const set = sketchMany([expected.docs[0], expected.docs[4]], index.params);
  index.insert('new-copy-of-0', set.get(0));
  assert.ok(index.clusterOf(0) >= 0);
  assert.is(index.clusterOf(index.docIds('new-copy-of-0')[0]), index.clusterOf(0));
  index.insert('back-4', set.get(1));
  const again = loadIndex(saveIndex(index));
  assert.equal(again.clusters().map((m) => Array.from(m)), index.clusters().map((m) => Array.from(m)));
  assert.ok(again.has('back-4') && !again.isRemoved(again.docIds('back-4')[0]));
});

test.run();
