import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, canonicalize, tokenFingerprints } from '../../src/index.js';
import { withArena } from '../../src/wasm/instance.js';
import { canonicalRef, ENTITIES, tokenFpsRef } from '../../src/reference/tokens.js';
import { rng } from '../helpers/random.js';
import { randomDoc } from './documents.js';

await init();

test('canonical text equals the reference on 3000 random documents of every rule', () => {
  const r = rng(42);
  for (let t = 0; t < 3000; t++) {
    const doc = randomDoc(r, 1 + Math.floor(r() * 30));
    const got = canonicalize(doc), want = canonicalRef(doc);
    if (got !== want) assert.fixture(got, want);
  }
});

test('text mode keeps markup as text', () => {
  const r = rng(43);
  for (let t = 0; t < 500; t++) {
    const doc = randomDoc(r, 1 + Math.floor(r() * 20));
    assert.is(canonicalize(doc, { markup: 'text' }), canonicalRef(doc, { markup: 'text' }));
  }
  assert.is(canonicalize('<p>A&amp;B</p>', { markup: 'text' }), 'p a amp b p');
});

test('token fingerprints equal Rabin of each canonical token (word and char units)', () => {
  const r = rng(44);
  for (let t = 0; t < 300; t++) {
    const doc = randomDoc(r, 1 + Math.floor(r() * 15));
    assert.equal(Array.from(tokenFingerprints(doc)), tokenFpsRef(doc), 'word');
    assert.equal(Array.from(tokenFingerprints(doc, { unit: 'char' })), tokenFpsRef(doc, { unit: 'char' }), 'char');
  }
});

test('known canonical forms', () => {
  assert.is(canonicalize('<html><head><title>Hi</title><script>var x = "a b";</script></head><body><p>Hello,&nbsp;WORLD!</p></body></html>'), 'hi hello world');
  assert.is(canonicalize('Ünïcödé ΣΟΦΙΑ Москва'), 'ünïcödé σοφια москва');
  assert.is(canonicalize('東京は晴れ'), '東 京 は 晴 れ', 'CJK and kana are one token per character');
  assert.is(canonicalize('ภาษาไทย'), 'ภ า ษ า ไ ท ย');
  assert.is(canonicalize('caf&eacute; &#x4E2D;&#25991;'), 'café 中 文');
  assert.is(canonicalize('a<!-- b -->c'), 'a c', 'markup separates words');
  assert.is(canonicalize('x < y and y > z'), 'x y and y z', 'a lone < is text');
  assert.is(canonicalize(Uint8Array.from([0x61, 0xff, 0x62, 0xc3, 0xa9])), 'a bé', 'invalid bytes are separators');
  assert.is(canonicalize(''), '');
  assert.is(canonicalize(' \n\t '), '');
});

test('the kernel entity table equals the reference table', () => {
  const table = withArena((mem, k) => {
    const ptr = mem.alloc(4096);
    return mem.takeU8(ptr, k.tk_entity_table(ptr, 4096));
  });
  const got: Record<string, number> = {};
  for (let p = 0; p < table.length;) {
    const len = table[p];
    const name = String.fromCharCode(...table.subarray(p + 1, p + 1 + len));
    const q = p + 1 + len;
    got[name] = table[q] | (table[q + 1] << 8) | (table[q + 2] << 16);
    p = q + 3;
  }
  assert.equal(got, { ...ENTITIES });
});

test.run();
