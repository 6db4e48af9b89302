// Page similarity (ST) and trivial clusters: text lines, chunking, the iceberg query and both
// similarity tests against brute force.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chunkFingerprints, pageChunks } from '../../src/collections/chunks.js';
import { icebergPairs } from '../../src/collections/iceberg.js';
import { parseSimilarity, similarPages } from '../../src/collections/similarity.js';
import { sentences, textLines } from '../../src/collections/text.js';
import { init } from '../../src/index.js';
import { fingerprint } from '../../src/sketch/rabin.js';
import { resemblance } from '../../src/sketch/estimate.js';
import { sketchMany } from '../../src/sketch/sketch.js';
import { rng } from '../helpers/random.js';

await init();

test('textLines: markup to lines, entities decoded, scripts dropped, case folded', () => {
  const html = '<html><head><title>The  Title</title><style>p{}</style></head><body><!-- note --><p>One &amp; <b>two</b></p>'
    + '<script>var x = "<p>";</script><div>Three&nbsp;&#52;&#x32;</div>text<br>after <span>span</span></body>';
  assert.equal(textLines(html, 'html'), ['the title', 'one & two', 'three 42', 'text', 'after span']);
  assert.equal(textLines('A  b\r\n\n  C\rd ', 'text'), ['a b', 'c', 'd']);
  assert.equal(sentences(['First one. Second', 'line! Third?']), ['First one.', 'Second line!', 'Third?']);
});

test('pageChunks: whole document, N lines (non-overlapping), sentences', () => {
  const page = 'l1\nl2\nl3\nl4\nl5';
  assert.equal(pageChunks(page, { unit: 'document', lines: 4, markup: 'text' }), ['l1\nl2\nl3\nl4\nl5']);
  assert.equal(pageChunks(page, { unit: 'lines', lines: 2, markup: 'text' }), ['l1\nl2', 'l3\nl4', 'l5']);
  assert.equal(pageChunks('A b. C\nd.\nE', { unit: 'sentence', lines: 1, markup: 'text' }), ['a b.', 'c d.', 'e']);
  assert.equal(pageChunks('  \n ', { unit: 'lines', lines: 2, markup: 'text' }), []);
  // Windows overlap: every run of N lines; a page of N lines or fewer is one window.
  assert.equal(pageChunks(page, { unit: 'windows', lines: 2, markup: 'text' }), ['l1\nl2', 'l2\nl3', 'l3\nl4', 'l4\nl5']);
  assert.equal(pageChunks('l1\nl2', { unit: 'windows', lines: 4, markup: 'text' }), ['l1\nl2']);
});

test('textLines: an XML declaration is markup (a re-encoded copy names another encoding there)', () => {
  const a = textLines('<?xml version="1.0" encoding="utf-8"?><html><p>Same</p></html>', 'html');
  const b = textLines('<?xml version="1.0" encoding="euc-jp"?><html><p>Same</p></html>', 'html');
  assert.equal(a, ['same']);
  assert.equal(a, b);
});

test('chunkFingerprints: each page holds the Rabin fingerprints of its distinct chunks, ascending', () => {
  const pages = ['a\nb\na\nb\nc', '<p>x</p><p>y</p>', '', new TextEncoder().encode('a\nb')];
  const p = { unit: 'lines' as const, lines: 2, markup: 'html' as const };
  const cols = chunkFingerprints(pages, p);
  for (let i = 0; i < pages.length; i++) {
    const text = typeof pages[i] === 'string' ? pages[i] as string : new TextDecoder().decode(pages[i] as Uint8Array);
    const want = [...new Set(pageChunks(text, p).map((c) => fingerprint(c)))].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    assert.equal(Array.from(cols.values.subarray(cols.offsets[i], cols.offsets[i + 1])), want, `page ${i}`);
  }
  assert.equal(Array.from(cols.empty), [0, 0, 1, 0]);
  assert.is(cols.textFp[0] === cols.textFp[3], false);
});

/** Orders "a,b,shared" strings by a, then b (numerically). */
const cmpPair = (x: string, y: string) => {
  const [xa, xb] = x.split(',').map(Number), [ya, yb] = y.split(',').map(Number);
  return xa - ya || xb - yb;
};

test('icebergPairs equals brute-force counting, with the common-value cap, on all pages and on some', () => {
  const r = rng(7);
  for (let round = 0; round < 60; round++) {
    const n = 2 + Math.floor(r() * 40), vocab = 1 + Math.floor(r() * 30);
    const sets: bigint[][] = [];
    for (let i = 0; i < n; i++) {
      const s = new Set<bigint>();
      const k = Math.floor(r() * 8);
      for (let j = 0; j < k; j++) s.add(BigInt(Math.floor(r() * vocab)) * 0x9e3779b97f4a7c15n % (1n << 64n));
      sets.push([...s].sort((x, y) => (x < y ? -1 : 1)));
    }
    const offsets = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i] + sets[i].length;
    const values = BigUint64Array.from(sets.flat());
    const cap = 2 + Math.floor(r() * 10), T = 1 + Math.floor(r() * 3);
    const onPages = new Map<bigint, number>();
    for (const s of sets) for (const v of s) onPages.set(v, (onPages.get(v) ?? 0) + 1);
    const want: string[] = [];
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        const shared = sets[a].filter((v) => sets[b].includes(v) && onPages.get(v)! <= cap).length;
        if (shared >= T) want.push(`${a},${b},${shared}`);
      }
    }
    let ignored: Uint32Array | undefined;
    const got = icebergPairs(values, offsets, { cap, accept: (_a, _b, s) => s >= T, ignored: (p) => { ignored = p; } });
    // each page's values left out by the cap, handed over before the pairs
    assert.equal(Array.from(ignored!), sets.map((set) => set.filter((v) => onPages.get(v)! > cap).length), `round ${round}: ignored per page`);
    const listed = Array.from(got.a, (a, i) => `${a},${got.b[i]},${got.shared[i]}`);
    assert.equal(listed, [...want].sort((x, y) => cmpPair(x, y)), `round ${round}: a ascending, then b`);
    // Only some pages: the cap counts those pages alone.
    const some = Uint32Array.from({ length: n }, (_v, i) => i).filter((i) => i % 3 !== 1);
    const onSome = new Map<bigint, number>();
    for (const i of some) for (const v of sets[i]) onSome.set(v, (onSome.get(v) ?? 0) + 1);
    const wantSome: string[] = [];
    for (const a of some) {
      for (const b of some) {
        if (b <= a) continue;
        const shared = sets[a].filter((v) => sets[b].includes(v) && onSome.get(v)! <= cap).length;
        if (shared >= T) wantSome.push(`${a},${b},${shared}`);
      }
    }
    let ignoredSome: Uint32Array | undefined;
    const gotSome = icebergPairs(values, offsets, { cap, accept: (_a, _b, s) => s >= T, pages: some, ignored: (p) => { ignoredSome = p; } });
    assert.equal(Array.from(ignoredSome!), sets.map((set, i) => (some.includes(i) ? set.filter((v) => onSome.get(v)! > cap).length : 0)), `round ${round}: ignored per page, some pages`);
    assert.equal(Array.from(gotSome.a, (a, i) => `${a},${gotSome.b[i]},${gotSome.shared[i]}`), wantSome, `round ${round}, some pages`);
  }
});

/** Connected components of a pair relation, as sorted lists of sorted members (singletons left out). */
function closure(n: number, similar: (a: number, b: number) => boolean): number[][] {
  const seen = new Uint8Array(n), out: number[][] = [];
  for (let s = 0; s < n; s++) {
    if (seen[s]) continue;
    const comp = [s]; seen[s] = 1;
    for (let h = 0; h < comp.length; h++) for (let v = 0; v < n; v++) if (!seen[v] && similar(comp[h], v)) { seen[v] = 1; comp.push(v); }
    if (comp.length > 1) out.push(comp.sort((x, y) => x - y));
  }
  return out;
}

function clustersOf(trivial: { count: number; offsets: Uint32Array; pages: Uint32Array }): number[][] {
  const out: number[][] = [];
  for (let r = 0; r < trivial.count; r++) if (trivial.offsets[r + 1] - trivial.offsets[r] > 1) out.push(Array.from(trivial.pages.subarray(trivial.offsets[r], trivial.offsets[r + 1])));
  return out;
}

/** Random pages of up to 13 lines drawn from a pool of `base` to `base + spread` lines. */
function randomPages(r: () => number, base: number, spread: number): string[] {
  const pool = Array.from({ length: base + Math.floor(r() * spread) }, (_, i) => `line ${i} ${Math.floor(r() * 1e6)}`);
  const n = 5 + Math.floor(r() * 25);
  return Array.from({ length: n }, () => Array.from({ length: Math.floor(r() * 14) }, () => pool[Math.floor(r() * pool.length)]).join('\n'));
}

test('chunk similarity: trivial clusters are the closure of "share ≥ T chunks or the same chunk set"', () => {
  const r = rng(11);
  for (let round = 0; round < 25; round++) {
    const pages = randomPages(r, 12, 20), n = pages.length;
    const lines = 1 + Math.floor(r() * 3), T = 1 + Math.floor(r() * 4);
    const chunks = pages.map((p) => new Set(pageChunks(p, { unit: 'lines', lines, markup: 'text' })));
    const st = (a: number, b: number) => {
      const shared = [...chunks[a]].filter((c) => chunks[b].has(c)).length;
      return chunks[a].size > 0 && chunks[b].size > 0 && (shared >= T || (shared === chunks[a].size && shared === chunks[b].size));
    };
    const got = similarPages(pages, { kind: 'chunks', unit: 'lines', lines, threshold: T, markup: 'text' });
    assert.ok(Array.from(got.score).every((x) => x > 0 && x <= 1));
    assert.equal(clustersOf(got.trivial), closure(n, st), `round ${round}`);
  }
});

test('window similarity with the cap: windows on more than cap distinct pages count neither as shared nor in a page\'s size', () => {
  const r = rng(17);
  let capped = 0, joinedByCap = 0;
  for (let round = 0; round < 40; round++) {
    // a sidebar of navigation lines on most pages, and exact copies of some pages
    const sidebar = Array.from({ length: 3 + Math.floor(r() * 8) }, (_, i) => `nav ${i} ${Math.floor(r() * 1e6)}`).join('\n');
    const pages = randomPages(r, 10, 15).map((p) => (r() < 0.7 ? `${p}\n${sidebar}` : p));
    for (let k = Math.floor(r() * 5); k > 0; k--) pages.push(pages[Math.floor(r() * pages.length)]);
    const n = pages.length;
    const lines = 1 + Math.floor(r() * 3), R = [0.3, 0.5, 0.8][Math.floor(r() * 3)], cap = 2 + Math.floor(r() * 4);
    const chunks = pages.map((p) => new Set(pageChunks(p, { unit: 'windows', lines, markup: 'text' })));
    // the cap counts one page per distinct text (copies are one page for the test)
    const rep = pages.map((p, i) => (chunks[i].size === 0 ? i : pages.indexOf(p)));
    const on = new Map<string, number>();
    rep.forEach((q, i) => { if (q === i) for (const c of chunks[i]) on.set(c, (on.get(c) ?? 0) + 1); });
    const kept = chunks.map((set) => new Set([...set].filter((c) => on.get(c)! <= cap)));
    capped += chunks.reduce((t, set, i) => t + set.size - kept[i].size, 0);
    const shared = (a: number, b: number) => [...kept[a]].filter((c) => kept[b].has(c)).length;
    const test = (a: number, b: number, size: (p: number) => number) => {
      const s = shared(a, b);
      return s >= 1 && (s >= R * Math.max(size(a), size(b)) || (s === size(a) && s === size(b)));
    };
    const st = (a: number, b: number) => (chunks[a].size > 0 && rep[a] === rep[b]) || (chunks[a].size > 0 && chunks[b].size > 0 && test(rep[a], rep[b], (p) => kept[p].size));
    const got = similarPages(pages, { kind: 'chunks', unit: 'windows', lines, ratio: R, cap, markup: 'text' });
    assert.equal(clustersOf(got.trivial), closure(n, st), `round ${round}`);
    for (let i = 0; i < got.a.length; i++) {
      const a = got.a[i], b = got.b[i];
      assert.is(got.score[i], shared(a, b) / Math.max(kept[a].size, kept[b].size), `round ${round}: score over the windows that count`);
      // pairs the old rule (sizes with the capped windows) would not have joined
      if (!test(a, b, (p) => chunks[p].size)) joinedByCap++;
    }
  }
  assert.ok(capped > 100, `windows capped: ${capped}`);
  assert.ok(joinedByCap > 0, `pairs joined only because capped windows no longer count in the sizes: ${joinedByCap}`);
});

test('window similarity: the closure of "share ≥ R of the larger page\'s windows", with scores and exact resemblance', () => {
  const r = rng(13);
  for (let round = 0; round < 25; round++) {
    const pages = randomPages(r, 10, 15), n = pages.length;
    const lines = 1 + Math.floor(r() * 3), R = [0.3, 0.5, 0.8][Math.floor(r() * 3)];
    const chunks = pages.map((p) => new Set(pageChunks(p, { unit: 'windows', lines, markup: 'text' })));
    const shared = (a: number, b: number) => [...chunks[a]].filter((c) => chunks[b].has(c)).length;
    const st = (a: number, b: number) => chunks[a].size > 0 && chunks[b].size > 0
      && ((shared(a, b) >= 1 && shared(a, b) >= R * Math.max(chunks[a].size, chunks[b].size)) || (shared(a, b) === chunks[a].size && shared(a, b) === chunks[b].size));
    const got = similarPages(pages, `windows:${lines}:${R}`);
    assert.equal(clustersOf(got.trivial), closure(n, st), `round ${round}`);
    for (let i = 0; i < got.a.length; i++) {
      const a = got.a[i], b = got.b[i];
      assert.is(got.score[i], shared(a, b) / Math.max(chunks[a].size, chunks[b].size));
    }
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        const j = chunks[a].size && chunks[b].size ? shared(a, b) / (chunks[a].size + chunks[b].size - shared(a, b)) : 0;
        const same = pages[a].trim() !== '' && pages[a] === pages[b];
        assert.ok(Math.abs(got.resemblance(a, b) - (same ? 1 : j)) < 1e-12, `round ${round} ${a} ${b}`);
      }
      // Copies with the same text point at the first of them.
      assert.is(got.label[a], pages[a].trim() === '' ? a : pages.findIndex((p) => p === pages[a]));
    }
  }
});

test('chunk similarity: whole-document fingerprints group identical texts only', () => {
  const pages = ['<p>A</p><p>B</p>', 'a\nb', 'a\nb\nc', '', '', 'A  \n  B'];
  const got = similarPages(pages, 'chunks:doc');
  // Markup and spacing are gone after conversion: pages 0, 1 and 5 are one text; empty pages are never similar.
  assert.equal(clustersOf(got.trivial), [[0, 1, 5]]);
  assert.is(got.emptyPages, 2);
});

test('sketch similarity: the closure of estimated resemblance ≥ threshold', () => {
  const r = rng(5);
  const vocab = Array.from({ length: 40 }, (_, i) => `w${i}`);
  for (let round = 0; round < 8; round++) {
    const base = Array.from({ length: 4 }, () => Array.from({ length: 60 }, () => vocab[Math.floor(r() * vocab.length)]));
    const pages = Array.from({ length: 16 }, () => {
      const words = base[Math.floor(r() * base.length)].slice();
      const edits = Math.floor(r() * 30);
      for (let e = 0; e < edits; e++) words[Math.floor(r() * words.length)] = vocab[Math.floor(r() * vocab.length)];
      return words.join(' ');
    });
    for (const [t, sketch] of [[0.5, { s: 32 }], [0.3, { kind: 'mod' as const, m: 4 }]] as const) {
      const set = sketchMany(pages, sketch);
      const st = (a: number, b: number) => set.offsets[a + 1] > set.offsets[a] && set.offsets[b + 1] > set.offsets[b] && resemblance(set.get(a), set.get(b)) >= t;
      const got = similarPages(pages, { kind: 'sketch', threshold: t, sketch });
      assert.equal(clustersOf(got.trivial), closure(pages.length, st), `round ${round} t ${t}`);
    }
  }
});

test('parseSimilarity: the CLI spellings and coded errors', () => {
  assert.equal(parseSimilarity('chunks:4:15'), { kind: 'chunks', unit: 'lines', lines: 4, threshold: 15, ratio: 0, cap: 1000, markup: 'html' });
  assert.equal(parseSimilarity('chunks:doc'), { kind: 'chunks', unit: 'document', lines: 4, threshold: 1, ratio: 0, cap: 1000, markup: 'html' });
  assert.equal(parseSimilarity(), { kind: 'chunks', unit: 'windows', lines: 4, threshold: 1, ratio: 0.5, cap: 64, markup: 'html' });
  assert.equal(parseSimilarity('windows:2:0.7'), { kind: 'chunks', unit: 'windows', lines: 2, threshold: 1, ratio: 0.7, cap: 64, markup: 'html' });
  assert.equal(parseSimilarity('chunks:sentence:3').threshold, 3);
  assert.equal(parseSimilarity('sketch:0.5'), { kind: 'sketch', threshold: 0.5, cap: 1000, sketch: {} });
  for (const bad of ['chunks:4', 'chunks:0:15', 'chunks:a:b', 'sketch:', 'sketch:2', 'shingles:3', 'chunks:4:15:1', 'windows:4', 'windows:4:1.5', 'windows:0:0.5', 'windows:4:x']) {
    try { parseSimilarity(bad); assert.unreachable(bad); } catch (e) { assert.is((e as { code?: string }).code, 'E_OPTION', bad); }
  }
  try { parseSimilarity({ kind: 'chunks', lines: 4, bogus: 1 } as never); assert.unreachable(); } catch (e) { assert.is((e as { code?: string }).code, 'E_OPTION'); }
});

test.run();
