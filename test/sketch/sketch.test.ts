import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketch, sketchMany } from '../../src/index.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { minSRef, modMRef, adaptiveRef, signatureRef } from '../../src/reference/sketch.js';
import { rng, randomWords } from '../helpers/random.js';
import { docs } from './documents.js';

await init();

test('MIN_s sketches equal sort-based selection; cardinality exact below s', () => {
  for (const s of [1, 5, 64, 128]) {
    const set = sketchMany(docs(2, 27), { s, w: 4 });
    docs(2, 27).forEach((d, i) => {
      const all = shingleValuesRef(d, { w: 4 });
      assert.equal(Array.from(set.get(i).values), minSRef(all, s), `doc ${i} s=${s}`);
      const distinct = new Set(all).size;
      if (distinct < s) assert.is(set.cardinality[i], distinct);
    });
  }
});

test('MOD_m and adaptive sketches equal filter-based selection', () => {
  const all = docs(3, 27);
  const mod = sketchMany(all, { kind: 'mod', m: 7, w: 3 });
  const ada = sketchMany(all, { kind: 'adaptive', w: 3 });
  all.forEach((d, i) => {
    const values = shingleValuesRef(d, { w: 3 });
    assert.equal(Array.from(mod.get(i).values), modMRef(values, 7), `mod doc ${i}`);
    assert.is(mod.cardinality[i], new Set(values).size);
    const a = adaptiveRef(values);
    assert.equal(Array.from(ada.get(i).values), a.values, `adaptive doc ${i}`);
    assert.is(ada.get(i).modulusLog2, a.i);
  });
  assert.ok(ada.modulusLog2.some((x) => x > 2), 'long documents use a larger modulus');
});

test('full sets and MIN_s sketches sort repeated, bunched and many values as the reference does', () => {
  // the kernel sorts by bucket under the largest value, then quicksort per bucket: one value
  // repeated, a few values cycling, one bucket's worth and a long page must all come out sorted
  const r = rng(11);
  const words = randomWords(r, 60000, 400);
  const pages = [
    Array(5000).fill('same').join(' '),
    Array.from({ length: 6000 }, (_, i) => ['a', 'b', 'c', 'd', 'e'][i % 5]).join(' '),
    Array.from({ length: 3000 }, (_, i) => `w${i % 70}`).join(' '),
    words.join(' '),
    words.slice(0, 63).join(' '),
    words.slice(0, 64).join(' '),
  ];
  const full = sketchMany(pages, { kind: 'mod', m: 1, w: 2 });
  const min = sketchMany(pages, { s: 200, w: 2 });
  pages.forEach((d, i) => {
    const all = shingleValuesRef(d, { w: 2 });
    assert.equal(Array.from(full.get(i).values), modMRef(all, 1), `full set of page ${i}`);
    assert.equal(Array.from(min.get(i).values), minSRef(all, 200), `MIN_200 of page ${i}`);
  });
});

test('k-value signatures equal the one-permutation-hashing reference', () => {
  const all = docs(4, 18);
  for (const k of [1, 16, 100]) {
    const set = sketchMany(all, { k, w: 2, seed: 5n });
    all.forEach((d, i) => assert.equal(Array.from(set.signatureOf(i)), signatureRef(shingleValuesRef(d, { w: 2, seed: 5n }), k, 5n), `doc ${i} k=${k}`));
  }
});

test('sketchMany equals sketch one by one, across kernel batches, and is deterministic', () => {
  const r = rng(6);
  const many = Array.from({ length: 5000 }, (_, i) => randomWords(r, i % 50 === 0 ? 4000 : 30, 80).join(' '));
  const set = sketchMany(many, { s: 16 });
  for (const i of [0, 1, 2, 999, 4095, 4096, 4999]) assert.equal(set.get(i).values, sketch(many[i], { s: 16 }).values, `doc ${i}`);
  assert.equal(sketchMany(many, { s: 16 }).values, set.values);
});

test('whole-document fingerprints: identical, lexically equivalent, shingle-equivalent', () => {
  const set = sketchMany([
    'Hello world, this is a page.',
    'Hello world, this is a page.',
    '<b>HELLO</b> world — this is a page!',
    'hello world this is a page',
    'another page entirely here',
  ], { w: 2 });
  assert.is(set.rawFp[0], set.rawFp[1]);
  assert.is.not(set.rawFp[0], set.rawFp[2]);
  assert.is(set.lexicalFp[0], set.lexicalFp[2]);
  assert.is(set.lexicalFp[0], set.lexicalFp[3]);
  assert.is.not(set.lexicalFp[0], set.lexicalFp[4]);
  assert.is(set.shingleFp[0], set.shingleFp[3]);
  assert.is.not(set.shingleFp[0], set.shingleFp[4]);
});

test.run();
