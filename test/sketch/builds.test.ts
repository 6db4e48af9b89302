// The SIMD and scalar builds of the kernels against each other and against the slow references:
// the same random documents (markup, references, scripts, invalid UTF-8, CJK and Thai, long words,
// real pages cut at random places) through every kernel, in both builds, bit for bit; and content
// mode's kernels (block fingerprints, content sketches against template tables) the same way.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany, type SketchOptions } from '../../src/index.js';
import { canonicalize, chunkBoundaries, fingerprint, fingerprintMany, kernelBuild, rollingFingerprints, serializeSketchSet, shingleValues, tokenFingerprints } from '../../src/advanced.js';
import { useBuild } from '../../src/wasm/loader.js';
import { canonicalRef, tokenFpsRef } from '../../src/reference/tokens.js';
import { rabinRef, rabinWordsRef } from '../../src/reference/rabin.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { minSRef } from '../../src/reference/sketch.js';
import { blockFingerprintRef, blocksRef, contentTokensRef } from '../../src/reference/template.js';
import { blockFingerprints, learnTemplates, NO_TABLE, WHOLE_PAGE } from '../../src/template/index.js';
import { rng, randomBytes } from '../helpers/random.js';
import { randomDoc } from './documents.js';
import { articles, site } from '../template/sites.js';

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
const SAMPLE = join(import.meta.dirname, '..', '..', 'sample');
const pages: string[] = [];
(function walk(dir: string) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (name.endsWith('.html')) pages.push(p);
  }
})(SAMPLE);
for (let i = 0; i < 60; i++) {
  const page = readFileSync(pages[Math.floor(r() * pages.length)]);
  const a = Math.floor(r() * page.length), b = a + Math.floor(r() * (page.length - a));
  DOCS.push(new Uint8Array(page.subarray(a, b)));
}
for (let i = 0; i < 20; i++) DOCS.push(randomBytes(r, Math.floor(r() * 5000)));
const OPTIONS: SketchOptions[] = [{}, { w: 3, s: 16 }, { kind: 'mod', m: 3, w: 2 }, { kind: 'adaptive' }, { k: 32, seed: 7n }, { unit: 'char', w: 5 }, { markup: 'text', w: 4 }];

// Content mode: two generated templated sites, whole real pages of three sample hosts, and every
// third random document; template tables learnt once (before either build is compared), per host.
const enc = new TextEncoder();
const ARTICLES = articles(41, 60);
const SITES = [site(42, 'a.example', ARTICLES, Array.from({ length: 30 }, (_, i) => i)), site(43, 'b.example', ARTICLES, Array.from({ length: 30 }, (_, i) => i + 20), 12)];
const CONTENT_DOCS: Uint8Array[] = [], CONTENT_HOSTS: string[] = [];
for (const s of SITES) for (const page of s.pages) { CONTENT_DOCS.push(enc.encode(page)); CONTENT_HOSTS.push(s.host); }
for (const p of pages) {
  const host = relative(SAMPLE, p).split(sep)[0];
  if (!/^(docs|archive|notes)\.example\.com$/.test(host)) continue;
  CONTENT_DOCS.push(new Uint8Array(readFileSync(p))); CONTENT_HOSTS.push(host);
}
const FIRST_RANDOM = CONTENT_DOCS.length;
DOCS.forEach((d, i) => { if (i % 3 === 0) { CONTENT_DOCS.push(d); CONTENT_HOSTS.push('random.example'); } });
// heavy 0: every template learnt is used, light ones too, so the kernel removes as many as it can
const TEMPLATES = learnTemplates(CONTENT_DOCS, CONTENT_HOSTS, { heavy: 0 }).tables;
const CONTENT_OPTIONS: SketchOptions[] = [{}, { w: 3, s: 16, linkDensity: 0.2, minContent: 5 }, { kind: 'mod', m: 3, w: 2, linkDensity: 1, minContent: 0 },
  { kind: 'adaptive' }, { k: 32, seed: 7n, minContent: 200 }];

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
    blocks: (({ values, offsets }) => [hex(values), Array.from(offsets).join(',')])(blockFingerprints(CONTENT_DOCS)),
    content: CONTENT_OPTIONS.flatMap((o) => [
      Buffer.from(serializeSketchSet(sketchMany(CONTENT_DOCS, { ...o, content: 'main', templates: TEMPLATES }))).toString('base64'),
      Buffer.from(serializeSketchSet(sketchMany(CONTENT_DOCS, { ...o, content: 'main' }))).toString('base64'),
    ]),
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
    for (const d of DOCS.slice(680, 690)) assert.is(fingerprint(d), rabinRef(d), `${d.length} bytes: 32-byte steps`);
    use('simd');
  });

  test(`${build} ≡ reference: block fingerprints and content sketches (tp_blocks, tp_sketch_batch) against learnt templates`, () => {
    use(build);
    assert.ok(TEMPLATES.offsets.length > 4, 'a template table for each generated site and real host');
    const linkPermille = 300, minContent = 20;
    const set = sketchMany(CONTENT_DOCS, { content: 'main', templates: TEMPLATES, s: 32, w: 4, linkDensity: linkPermille / 1000, minContent });
    const blocks = blockFingerprints(CONTENT_DOCS);
    let kept = 0;
    CONTENT_DOCS.forEach((d, i) => {
      if (i >= FIRST_RANDOM && i % 2 === 1) return;   // of the random documents, every other one is enough for the slow twin
      const want = blocksRef(d).map(blockFingerprintRef);
      assert.equal(Array.from(blocks.values.subarray(blocks.offsets[i], blocks.offsets[i + 1])), want, `blocks ${i}`);
      const t = TEMPLATES.docTable[i];
      if (t === WHOLE_PAGE) {
        // a site without a template table: sketched whole
        assert.equal(Array.from(set.get(i).values), minSRef(shingleValuesRef(d, { w: 4 }), 32), `whole-page sketch ${i}`);
        return;
      }
      const table = new Set(t === NO_TABLE ? [] : TEMPLATES.values.subarray(TEMPLATES.offsets[t], TEMPLATES.offsets[t + 1]));
      const tokens = contentTokensRef(d, table, linkPermille, minContent);
      assert.is(set.tokens[i], tokens.length, `content tokens ${i}`);
      if (tokens.length < minContent) { assert.is(set.get(i).values.length, 0, `too little content ${i}`); return; }
      kept++;
      assert.equal(Array.from(set.get(i).values), minSRef(shingleValuesRef(tokens.join(' '), { w: 4, markup: 'text' }), 32), `content sketch ${i}`);
      if (d.length <= 4000) assert.is(set.rawFp[i], rabinRef(d), `raw ${i}`);
    });
    assert.ok(kept > 100, `${kept} pages with content checked`);
    use('simd');
  });
}

test.run();
