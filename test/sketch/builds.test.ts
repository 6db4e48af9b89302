// The SIMD and scalar builds of the kernels against each other and against the slow references:
// the same random documents (markup, references, scripts, invalid UTF-8, CJK and Thai, long words,
// real pages cut at random places) through every kernel, in both builds, bit for bit.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  canonicalize, chunkBoundaries, fingerprint, fingerprintMany, init, kernelBuild, rollingFingerprints, serializeSketchSet,
  shingleValues, sketchMany, tokenFingerprints, type SketchOptions,
} from '../../src/index.js';
import { useBuild } from '../../src/wasm/loader.js';
import { canonicalRef, tokenFpsRef } from '../../src/reference/tokens.js';
import { rabinRef, rabinWordsRef } from '../../src/reference/rabin.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { minSRef } from '../../src/reference/sketch.js';
import { rng, randomBytes } from '../helpers/random.js';
import { randomDoc } from './documents.js';

await init();
/** Makes a fresh instance of one build the current one. */
function use(build: 'simd' | 'scalar'): void {
  useBuild(build);
  assert.is(kernelBuild(), build);
}

// random documents of every rule, short and long; and real pages of the sample crawl cut at random places
const r = rng(2026);
const DOCS: Uint8Array[] = [];
for (let i = 0; i < 600; i++) DOCS.push(randomDoc(r, 1 + Math.floor(r() * (i % 10 === 0 ? 400 : 40))));
const pages: string[] = [];
(function walk(dir: string) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.html')) pages.push(p);
  }
})(join(import.meta.dirname, '..', '..', 'sample'));
for (let i = 0; i < 60; i++) {
  const page = readFileSync(pages[Math.floor(r() * pages.length)]);
  const a = Math.floor(r() * page.length), b = a + Math.floor(r() * (page.length - a));
  DOCS.push(new Uint8Array(page.subarray(a, b)));
}
for (let i = 0; i < 20; i++) DOCS.push(randomBytes(r, Math.floor(r() * 5000)));
const OPTIONS: SketchOptions[] = [{}, { w: 3, s: 16 }, { kind: 'mod', m: 3, w: 2 }, { kind: 'adaptive' }, { k: 32, seed: 7n }, { unit: 'char', w: 5 }, { markup: 'text', w: 4 }];

/** Everything the kernels compute for the documents, as comparable strings. */
function outputs(): Record<string, string[]> {
  const hex = (a: ArrayLike<bigint>) => Array.from(a, (v) => v.toString(16)).join(',');
  return {
    canonical: DOCS.map((d) => canonicalize(d)),
    text: DOCS.map((d) => canonicalize(d, { markup: 'text' })),
    tokens: DOCS.map((d) => hex(tokenFingerprints(d))),
    chars: DOCS.map((d) => hex(tokenFingerprints(d, { unit: 'char' }))),
    shingles: DOCS.map((d, i) => hex(shingleValues(d, { w: 1 + (i % 9) }))),
    sketches: OPTIONS.map((o) => Buffer.from(serializeSketchSet(sketchMany(DOCS, o))).toString('base64')),
    fingerprints: [hex(fingerprintMany(DOCS))],
    rolling: DOCS.slice(600, 640).map((d) => hex(rollingFingerprints(d, 1 + (d.length % 64)))),
    chunks: DOCS.slice(600, 680).map((d) => Array.from(chunkBoundaries(d, { window: 16, averageSize: 64, minSize: 16, maxSize: 256 })).join(',')),
  };
}

test('SIMD ≡ scalar on every kernel, over random documents and cut real pages', () => {
  use('simd');
  const simd = outputs();
  use('scalar');
  const scalar = outputs();
  use('simd');
  for (const [kernel, values] of Object.entries(simd)) {
    for (let i = 0; i < values.length; i++) if (values[i] !== scalar[kernel][i]) assert.fixture(scalar[kernel][i], values[i], `${kernel} ${i}`);
  }
});

for (const build of ['simd', 'scalar'] as const) {
  test(`${build} ≡ reference: canonical text, token fingerprints, shingles, MIN_s and the whole-document fingerprints`, () => {
    use(build);
    const sample = DOCS.filter((d, i) => i % 4 === 0 && d.length <= 6000);
    const set = sketchMany(sample, { s: 32, w: 4 });
    sample.forEach((d, i) => {
      assert.is(canonicalize(d), canonicalRef(d), `canonical ${i}`);
      const tokens = tokenFpsRef(d);
      assert.equal(Array.from(tokenFingerprints(d)), tokens, `tokens ${i}`);
      const values = shingleValuesRef(d, { w: 4 });
      assert.equal(Array.from(set.get(i).values), minSRef(values, 32), `sketch ${i}`);
      if (d.length <= 2000) assert.is(set.rawFp[i], rabinRef(d), `raw ${i}`);
      assert.is(set.lexicalFp[i], rabinWordsRef(tokens), `lexical ${i}`);
      assert.is(set.shingleFp[i], rabinWordsRef(minSRef(values, 32)), `shingle fingerprint ${i}`);
    });
    for (const d of DOCS.slice(680, 690)) assert.is(fingerprint(d), rabinRef(d), `${d.length} bytes: four lanes from 1024`);
    use('simd');
  });
}

test.run();
