// Known-answer vectors: the values a version-1 sketch holds for fixed inputs. They change only
// with a deliberate format change (new polynomial, tokenizer rule, mixer or seed), which must
// bump SKETCH_VERSION. Each vector is also checked against the BigInt reference.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketch } from '../../src/index.js';
import { shingleValues, canonicalize, tokenFingerprints } from '../../src/advanced.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { minSRef } from '../../src/reference/sketch.js';
import { tokenFpsRef } from '../../src/reference/tokens.js';

await init();
const hex = (a: ArrayLike<bigint>) => Array.from(a, (v) => v.toString(16).padStart(16, '0'));
const PAGE = '<html><head><title>Syntactic clustering</title><style>h1{}</style></head><body><h1>The Web</h1><p>A rose is a rose is a rose &amp; a ROSE.</p></body></html>';

test('canonical text and token fingerprints', () => {
  assert.is(canonicalize(PAGE), 'syntactic clustering the web a rose is a rose is a rose a rose');
  const t = tokenFingerprints('a rose is');
  assert.equal(hex(t), hex(tokenFpsRef('a rose is')));
  assert.equal(hex(t), ['0000000000000161', '00000001726f7365', '0000000000016973']);
});

test('shingle values (w = 4, seed 0) pinned', () => {
  const v = shingleValues(PAGE, { w: 4 });
  assert.equal(hex(v), hex(shingleValuesRef(PAGE, { w: 4 })));
  assert.equal(hex(v).slice(0, 3), PINNED_SHINGLES);
});

test('MIN_4 sketch pinned', () => {
  const s = sketch(PAGE, { w: 4, s: 4 });
  assert.equal(hex(s.values), hex(minSRef(shingleValuesRef(PAGE, { w: 4 }), 4)));
  assert.equal(hex(s.values), PINNED_MIN4);
});

const PINNED_SHINGLES = ['75e72567d4c4a41f', 'da35b1c62dab31cd', '7fc0330d4830b83f'];
const PINNED_MIN4 = ['1ec9ccf0acf2fb7d', '3f266a048d74305c', '734d5fd1ae850040', '75e72567d4c4a41f'];

test.run();
