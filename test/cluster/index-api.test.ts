// The datasketch-style surface: keyed insert / query / has / remove, a Sketch wherever a one-row
// set goes, item sketches (checked against the kernels' own text sketches and exact Jaccard),
// options that round-trip, validation at construction, coded errors, keys through save/load.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ResembleIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { loadIndex, saveIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { ResembleError } from '../../src/errors.js';
import { init, resemblance, resolveSketchOptions, sketch, sketchMany, type SketchOptions } from '../../src/index.js';
import { SketchSet, sketchItems, SketchBuilder } from '../../src/advanced.js';
import { rng } from '../helpers/random.js';
import { indexed } from './helpers.js';

await init();

const code = (f: () => unknown, c: string, text?: RegExp) =>
  assert.throws(f, (e: unknown) => e instanceof ResembleError && e.code === c && (!text || text.test(e.message)), `expected ${c}${text ? ` ${text}` : ''}`);

// Random documents: words from a small vocabulary, so near-duplicates can be made by edits.
const rnd = rng(7);
const word = () => `w${Math.floor(rnd() * 5000)}`;
const doc = (n: number) => Array.from({ length: n }, word);
const edit = (d: string[], p: number) => d.map((w) => (rnd() < p ? word() : w));

test('an empty index in one line; every option validated at construction', () => {
  const a = new ResembleIndex();
  assert.is(a.size, 0);
  assert.equal(a.params, resolveSketchOptions());
  assert.is(a.options.threshold, 0.5);
  const b = new ResembleIndex({ w: 5, s: 64, threshold: 0.8, containment: 0.9 });
  assert.equal([b.params.w, b.params.s, b.options.threshold, b.options.containment], [5, 64, 0.8, 0.9]);
  code(() => new ResembleIndex({ w: 0 }), 'E_OPTION', /for w, got 0/);
  code(() => new ResembleIndex({ w: 8, threshold: 2 }), 'E_OPTION', /threshold/);
  code(() => new ResembleIndex({ kind: 'mod', s: 64 }), 'E_OPTION', /no s with kind 'mod'/);
  code(() => new ResembleIndex({ wdith: 8 } as never), 'E_OPTION', /unknown option "wdith"/);
  code(() => new ResembleIndex({ threshold: 0.5 }, { threshold: 0.6 }), 'E_OPTION', /one value/);
  code(() => new ResembleIndex(null as never), 'E_OPTION');
});

test('resolved parameters are accepted back by sketch, sketchMany, sketchItems and the index', () => {
  for (const o of [{}, { kind: 'mod', m: 8 }, { kind: 'adaptive', k: 16 }, { w: 4, s: 32, superShingle: 3, seed: 5n }] as SketchOptions[]) {
    const p = resolveSketchOptions(o);
    assert.equal(resolveSketchOptions(p), p);
    const text = doc(300).join(' ');
    assert.equal(sketchMany([text], p).values, sketchMany([text], o).values);
    assert.equal(sketch(text, p).values, sketch(text, o).values);
    const index = new ResembleIndex(p);
    assert.equal(index.params, p);
    index.insert('a', sketch(text, p));
    assert.is(index.query(sketch(text, o))[0].key, 'a');
    const items = resolveSketchOptions({ ...o, w: 1, markup: 'text' });
    assert.equal(sketchItems(['x', 'y'], items).params, items);
  }
});

test('insert, query, has, remove by key, as datasketch; keys and clusters through save/load', () => {
  const index = new ResembleIndex({ threshold: 0.5 });
  const base = doc(400);
  const pages: Record<string, string> = { 'page-a': base.join(' '), 'page-b': edit(base, 0.02).join(' '), 'page-c': doc(400).join(' ') };
  for (const [k, text] of Object.entries(pages)) index.insert(k, sketch(text));
  assert.ok(index.has('page-a') && index.has('page-c') && !index.has('page-z'));
  const hits = index.query(sketch(edit(base, 0.01).join(' ')), { threshold: 0.5, limit: 5 });
  assert.equal(hits.map((h) => h.key), ['page-a', 'page-b']);
  assert.ok(hits[0].resemblance > 0.5 && hits[0].containment > 0.5);
  assert.equal(index.query(sketch(pages['page-c']), { limit: 1 }).map((h) => h.key), ['page-c']);
  assert.ok(index.clusterOf(0) >= 0);
  assert.is(index.clusterOf(0), index.clusterOf(1));
  // Keys survive save and load, with the clusters and the hits.
  const back = loadIndex(saveIndex(index));
  assert.ok(back.has('page-b'));
  assert.equal(back.query(sketch(pages['page-b'])).map((h) => h.key), index.query(sketch(pages['page-b'])).map((h) => h.key));
  assert.ok(back.clusterOf('page-a') >= 0);
  assert.is(back.clusterOf(back.docIds('page-a')[0]), back.clusterOf(back.docIds('page-b')[0]));
  back.insert('page-d', sketch(pages['page-a']));
  assert.is(back.clusterOf(back.docIds('page-d')[0]), back.clusterOf(back.docIds('page-a')[0]));
  // remove by key: gone from queries and from has(); unknown keys and repeated inserts are coded errors.
  assert.is(index.remove('page-b'), 1);
  assert.ok(!index.has('page-b'));
  assert.equal(index.query(sketch(pages['page-b'])).map((h) => h.key), ['page-a']);
  code(() => index.remove('page-b'), 'E_KEY', /not in the index/);
  code(() => index.insert('page-a', sketch(pages['page-a'])), 'E_KEY', /already in the index/);
  code(() => index.insert(42 as never, sketch(pages['page-a'])), 'E_KEY', /string key/);
  code(() => index.has(undefined as never), 'E_KEY');
  index.insert('page-b', sketch(pages['page-b'])); // a removed key can come back
  assert.ok(index.has('page-b'));
});

test('mismatched and malformed sketches are coded errors', () => {
  const index = new ResembleIndex();
  const text = doc(200).join(' ');
  code(() => index.insert('x', sketch(text, { w: 4 })), 'E_PARAMS', /w 4 ≠ 8/);
  code(() => index.query(sketch(text, { kind: 'mod' })), 'E_PARAMS', /kind/);
  code(() => index.insert('x', { params: index.params, values: [1n, 2n] } as never), 'E_INPUT', /BigUint64Array/);
  code(() => index.insert('x', { params: index.params, values: BigUint64Array.of(5n, 3n), cardinality: 2, modulusLog2: 0, tokens: 2 }), 'E_INPUT', /ascend/);
  code(() => index.query(null as never), 'E_INPUT');
  code(() => index.insert('x', sketchMany([text, text])), 'E_INPUT', /one sketch, got a set of 2/);
  code(() => SketchSet.from([sketch(text), sketch(text, { s: 64 })]), 'E_PARAMS', /s 128 ≠ 64|s 64 ≠ 128/);
  code(() => index.query(sketch(text), { limit: -1 }), 'E_OPTION');
  // A Sketch goes wherever a one-row set does, and the reverse for queries.
  const set = sketchMany([text]);
  assert.is(indexed(sketch(text)).size, 1);
  index.insertMany(sketch(text), { keys: ['t'] });
  assert.equal(index.query(set).map((h) => h.key), ['t']);
  assert.equal(index.sketch(0).values, set.get(0).values);
  assert.is(index.insertMany(set.get(0)).identical, 1, 'a sketch from a set keeps its fingerprints: the copy short-cuts');
});

test('item sketches equal the kernels\' w = 1 text sketches of the same tokens, for every kind', () => {
  for (const o of [{}, { s: 16 }, { kind: 'mod', m: 3 }, { kind: 'adaptive' }, { k: 32 }, { superShingle: 2, s: 20 }, { seed: 99n }] as SketchOptions[]) {
    for (const n of [0, 1, 7, 150, 2000]) {
      const words = doc(n);
      const items = sketchItems(words, o);
      const text = sketchMany([words.join(' ')], { ...o, w: 1, markup: 'text' });
      const want = text.get(0);
      assert.equal(items.values, want.values, `${JSON.stringify(o, (_k, v) => (typeof v === 'bigint' ? String(v) : v))} n=${n}`);
      assert.is(items.cardinality, want.cardinality);
      assert.is(items.modulusLog2, want.modulusLog2);
      assert.is(items.shingleFp, want.shingleFp);
      if (want.signature) assert.equal(items.signature, want.signature);
      if (o.superShingle) assert.equal(SketchSet.from([items]).superShingles!.values, text.superShingles!.values);
    }
  }
  // Items are taken verbatim (no case folding, any bytes), repeats count once.
  assert.not.equal(sketchItems(['Alpha']).values, sketchItems(['alpha']).values);
  assert.equal(sketchItems(['a', 'b', 'a']).values, sketchItems(['b', 'a']).values);
  assert.equal(sketchItems([new TextEncoder().encode('é')]).values, sketchItems(['é']).values);
  code(() => sketchItems(['a'], { w: 3 }), 'E_OPTION', /1 for item sketches/);
  code(() => sketchItems(['a'], { markup: 'html' }), 'E_OPTION', /'text' for item sketches/);
  code(() => sketchItems('abc' as never), 'E_INPUT');
  code(() => new SketchBuilder().update([1 as never]), 'E_INPUT', /item 0/);
});

test('SketchBuilder: update() item by item or in batches gives the one-shot sketch; estimates follow exact Jaccard', () => {
  const a = Array.from({ length: 9000 }, (_, i) => `item-${i}`);
  const b = a.slice(3000).concat(Array.from({ length: 3000 }, (_, i) => `other-${i}`));
  const builder = new SketchBuilder();
  for (let i = 0; i < a.length;) { const step = 1 + Math.floor(rnd() * 700); builder.update(step === 1 ? a[i] : a.slice(i, i + step)); i += step; }
  assert.equal(builder.digest().values, sketchItems(a).values);
  // Jaccard(a, b) = 6000 / 12000 = 0.5; MIN_128's standard error ≈ 0.044.
  const r = resemblance(sketchItems(a), sketchItems(b));
  assert.ok(Math.abs(r - 0.5) < 0.15, `estimate ${r}`);
  // An index of item sketches: the datasketch MinHashLSH workflow.
  const index = new ResembleIndex({ w: 1, markup: 'text', threshold: 0.4 });
  index.insert('a', sketchItems(a));
  index.insert('c', sketchItems(['unrelated']));
  assert.equal(index.query(sketchItems(b)).map((h) => h.key), ['a']);
});

test.run();
