import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { init, sketchMany } from '../../src/index.js';
import { canonicalize, kernelBuild, tokenFingerprints } from '../../src/advanced.js';
import { withArena } from '../../src/wasm/instance.js';
import { useBuild } from '../../src/wasm/loader.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { minSRef } from '../../src/reference/sketch.js';
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

// Markup for the block path's tag handling: tags at a block's start and inside it, names of any
// length (the 16-byte load's and beyond), script and style and the names that only begin so, quotes
// before and after the '>', values holding '>' and crossing 16-byte blocks, tags back to back.
const TAG_PIECES = [
  '<p>', '</p>', '<a href="x">', '<a href="a>b" class=\'c\'>', "<a title='x>y'>", '<img alt = ">" src=y>', '<b>', '</b>', '<br/>',
  '<averyveryverylongtagname>', '</averyveryverylongtagname>', '<abcdefghijklmn x="1">', '<abcdefghijklmnop>', '<x2y3z4w5v6u7t8s9>',
  '<script>a<b</script>', '<SCRIPT>x</script >', '<script\n>y</script>', '<script/>z</script>', '<scripts>w</scripts>', '<scriptx>v',
  '<style>p{}</style>', '<STYLE type="t">q</STYLE>', '<style/>r</style>', '<styles>s</styles>', '<stylez>',
  '<a href="' + 'v'.repeat(40) + '>' + 'w'.repeat(30) + '">', '<div data-x="' + '>'.repeat(20) + '" id=\'' + '"'.repeat(5) + '\'>',
  '<a b=>', '<a "x">', '<a b= "c">', '< p>', '<3', '</ >', '<!-- c -->', '<!x>', '<?y?>', '&amp;', 'é',
  'word', 'Word', 'WORDS', 'x', ' ', '  ', '\n', 'abcdefghijklmnopqrstu', '0123456789',
];

for (const build of ['simd', 'scalar'] as const) {
  test(`${build}: token fingerprints and sketches equal the reference on tag-heavy markup at every 16-byte and 64-byte alignment`, () => {
    useBuild(build);
    assert.is(kernelBuild(), build);
    const r = rng(45);
    const docs: string[] = [];
    for (let t = 0; t < 1280; t++) {
      let doc = ' '.repeat(t % 64);   // shifts every piece across the 16-byte blocks and the 64-byte windows
      const n = 1 + Math.floor(r() * 40);
      for (let i = 0; i < n; i++) doc += TAG_PIECES[Math.floor(r() * TAG_PIECES.length)];
      docs.push(doc);
      assert.equal(Array.from(tokenFingerprints(doc)), tokenFpsRef(doc), `doc ${t}: ${JSON.stringify(doc)}`);
    }
    // the same documents as one batch: each sketch as if alone (nothing carried from the document before)
    const set = sketchMany(docs, { w: 3, s: 8 });
    docs.forEach((d, i) => assert.equal(Array.from(set.get(i).values), minSRef(shingleValuesRef(d, { w: 3 }), 8), `sketch ${i}`));
    useBuild('simd');
  });
}

// Text for the block path's in-place decoding: valid 2- and 3-byte UTF-8 (word characters folded
// into the open token, one of them folding to fewer bytes; separators; characters of scripts
// written without spaces), sequences that are not valid (left to the slow path), the references it
// ends a token at and their near misses; long words, so an open token crosses its 8-byte words.
const enc = new TextEncoder();
const TEXT_PIECES: Uint8Array[] = [
  'é', 'Éé', 'ПРИВЕТ', 'привет', 'Ωμέγα', 'ΣΊΣΥΦΟΣ', 'ẞ', 'Straße', 'ĲŒ', 'Ա', 'ÿŸ', '×', '÷', 'ª', '\u00a0', '\u2014', '\u201c', '\u3000', '、',
  '中文', '日本語の', 'ｶﾀｶﾅ', 'ภาษา', 'ພາ', 'ខ្មែ', 'Ｆｕｌ', '한국', 'עב', 'الع', 'हि', '\ufeff', '\ufffd', '€', '😀',
  '&gt;', '&lt;', '&amp;', '&#39;', '&quot;', '&nbsp;', '&gt', '&ltx;', '&amp', '&#390;', '&#3;', '&quo;', '&nbspx;', '&QUOT;', '&eacute;', '&#x4E2D;', '&',
  'word', 'Words', 'abcdefg', 'abcdefghijklmnopq', 'ABCDEFGHIJKLMNOPQRSTU', 'x', '9', ' ', '  ', '\n', '.', '<b>', '</p>',
].map((piece) => enc.encode(piece));
TEXT_PIECES.push(Uint8Array.from([0xe2, 0x82]), Uint8Array.from([0xe0, 0x80, 0x80]), Uint8Array.from([0xed, 0xa0, 0x80]), Uint8Array.from([0xc3]),
  Uint8Array.from([0xc0, 0x80]), Uint8Array.from([0xe4, 0xb8]), Uint8Array.from([0x80]), Uint8Array.from([0xf0, 0x9f, 0x98]));

for (const build of ['simd', 'scalar'] as const) {
  test(`${build}: token fingerprints and sketches equal the reference on UTF-8 and references at every 16-byte alignment and every cut at the end`, () => {
    useBuild(build);
    assert.is(kernelBuild(), build);
    const r = rng(46);
    const docs: Uint8Array[] = [];
    for (let t = 0; t < 640; t++) {
      const parts: Uint8Array[] = [enc.encode(' '.repeat(t % 32))];   // shifts every piece across the 16-byte blocks
      const n = 1 + Math.floor(r() * 30);
      for (let i = 0; i < n; i++) parts.push(TEXT_PIECES[Math.floor(r() * TEXT_PIECES.length)]);
      const doc = Buffer.concat(parts);
      // the whole document and its last 24 cuts: sequences and references broken by the document's end, inside the last 16 bytes and not
      for (let cut = Math.max(0, doc.length - 24); cut <= doc.length; cut++) {
        const d = new Uint8Array(doc.subarray(0, cut));
        if (cut === doc.length || t % 8 === 0) docs.push(d);
        assert.equal(Array.from(tokenFingerprints(d)), tokenFpsRef(d), `doc ${t} cut ${cut}: ${JSON.stringify(Buffer.from(d).toString('latin1'))}`);
      }
    }
    const set = sketchMany(docs, { w: 3, s: 8 });
    docs.forEach((d, i) => assert.equal(Array.from(set.get(i).values), minSRef(shingleValuesRef(d, { w: 3 }), 8), `sketch ${i}`));
    useBuild('simd');
  });
}

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
