import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { alignedPairs, alignPaths, pathKey, prefixRange, samplePaths, spreadOrder } from '../../src/mirrors/alignment.js';
import { Random } from '../../src/random.js';

/** Every folder prefix of a list of paths, '' included. */
function folders(paths: readonly string[]): string[] {
  const out = new Set(['']);
  for (const p of paths) for (let i = p.indexOf('/'); i >= 0; i = p.indexOf('/', i + 1)) out.add(p.slice(0, i + 1));
  return [...out];
}

/** The obvious count: paths pA + rest on A whose pB + rest is on B. */
function naiveCommon(A: readonly string[], B: readonly string[], pA: string, pB: string): number {
  const set = new Set(B);
  return A.filter((p) => p.startsWith(pA) && set.has(pB + p.slice(pA.length))).length;
}

/** A random collection: paths in a few folders, two levels deep. */
function collection(rng: Random, n: number): string[] {
  const out = new Set<string>(['index.html']);
  while (out.size < n) {
    const depth = rng.int(3);
    const parts = Array.from({ length: depth }, () => `d${rng.int(4)}`);
    out.add([...parts, `p${rng.int(1000)}.html`].join('/'));
  }
  return [...out];
}

test('samplePaths and spreadOrder: equal intervals first, then every index once', () => {
  const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
  assert.equal(samplePaths(letters, 5), ['a', 'f', 'k', 'p', 'u']);
  assert.equal(samplePaths(letters.slice(0, 3), 15), ['a', 'b', 'c']);
  for (const [n, k] of [[0, 3], [1, 3], [7, 3], [40, 20], [101, 20]]) {
    const order = spreadOrder(n, k);
    assert.equal([...order].sort((x, y) => x - y), Array.from({ length: n }, (_, i) => i), `${n} ${k}`);
    assert.equal(order.slice(0, Math.min(n, k)), samplePaths(Array.from({ length: n }, (_, i) => i), k));
  }
  assert.equal(prefixRange(['a/', 'a/b', 'a0', 'b'], 'a/'), [0, 2]);
  assert.equal(prefixRange(['a/', 'a/b', 'a0', 'b'], ''), [0, 4]);
});

test('a planted prefix shift is recovered at the collection roots, partial copies included', () => {
  const rng = Random.stream(5, 'align');
  for (let t = 0; t < 40; t++) {
    const c = collection(rng, 20 + rng.int(60));
    const pa = ['', 'docs/', 'docs/3.11/', 'a/b/c/'][rng.int(4)];
    const pb = ['', 'mirror/', 'pub/x/y/', 'python/3.11/'][rng.int(4)];
    const kept = c.filter((_, i) => i === 0 || rng.int(3) > 0);
    const A = [...c.map((p) => pa + p), ...collection(rng, 10).map((p) => `own/${p}`)].sort();
    const B = [...kept.map((p) => pb + p), ...collection(rng, 10).map((p) => `other/${p}`)].sort();
    const top = alignPaths(A, B)[0];
    assert.equal([top.prefixA, top.prefixB], [pa, pb], `trial ${t}`);
    assert.is(top.common, kept.length);
    assert.is(top.pathsA, A.filter((p) => p.startsWith(pa)).length);
    assert.equal(alignedPairs(A, B, top).map(([i, j]) => [A[i].slice(pa.length), B[j].slice(pb.length)]).every(([x, y]) => x === y), true);
  }
});

test('alignments against brute force: counts exact, the best one found, none a mere extension of another', () => {
  const rng = Random.stream(6, 'align-brute');
  for (let t = 0; t < 25; t++) {
    const c = collection(rng, 15 + rng.int(30));
    const A = [...new Set([...c.map((p) => `x/${p}`), ...c.filter(() => rng.int(2) === 0).map((p) => `y/v2/${p}`)])].sort();
    const B = [...new Set([...c.filter(() => rng.int(4) > 0).map((p) => `m/${p}`), ...collection(rng, 10)])].sort();
    const found = alignPaths(A, B, { maxAlignments: 1000, maxPrefixes: 1000 });
    for (const al of found) assert.is(al.common, naiveCommon(A, B, al.prefixA, al.prefixB), `${al.prefixA} ${al.prefixB}`);
    let best = 0;
    for (const pA of folders(A)) for (const pB of folders(B)) best = Math.max(best, naiveCommon(A, B, pA, pB));
    assert.is(found[0].common, best, `trial ${t}`);
    for (const x of found) {
      for (const y of found) {
        if (x === y) continue;
        const ext = x.prefixA.startsWith(y.prefixA) && x.prefixB.startsWith(y.prefixB) && x.prefixA.slice(y.prefixA.length) === x.prefixB.slice(y.prefixB.length) && x.prefixA !== y.prefixA;
        assert.not.ok(ext, `${x.prefixA}↔${x.prefixB} extends ${y.prefixA}↔${y.prefixB}`);
      }
    }
  }
});

test('identical hosts align on their own paths; nothing in common gives no alignment; queries are not cut', () => {
  const paths = ['', 'a.html', 'b/c.html', 'b/d.html'];
  assert.equal(alignPaths(paths, paths), [{ prefixA: '', prefixB: '', common: 4, pathsA: 4, pathsB: 4 }]);
  assert.equal(alignPaths(['a.html', 'b.html'], ['c.html', 'd/e.html']), []);
  assert.equal(alignPaths([], ['a']), []);
  const q = alignPaths(['s?x=a/b', 's?x=c/d'], ['t/s?x=a/b', 't/s?x=c/d']);
  assert.equal(q.map((a) => [a.prefixA, a.prefixB, a.common]), [['', 't/', 2]]);
  // A name in many folders (index.html) stops proposing alignments past maxPrefixes.
  const A = Array.from({ length: 12 }, (_, i) => `f${i}/index.html`);
  const B = ['g/index.html'];
  assert.is(alignPaths(A, B).length, 8, 'at most maxAlignments');
  assert.is(alignPaths(A, B, { maxAlignments: 20 }).length, 12);
  assert.equal(alignPaths(A, B, { maxPrefixes: 10 }), []);
  assert.throws(() => alignPaths(A, B, { maxAlignments: 0 }), /maxAlignments/);
  assert.throws(() => alignPaths(A, B, { bogus: 1 } as object), /bogus/);
});

test('a copy saved under other page names (.htm for .html, wget -E) is aligned with its original', () => {
  const A = ['docs/', 'docs/intro.html', 'docs/lib/', 'docs/lib/os.html', 'docs/lib/sys.html', 'docs/faq.html'].sort();
  const B = ['m/', 'm/intro.htm', 'm/lib/index.htm', 'm/lib/os.htm', 'm/lib/sys.htm', 'm/faq.htm', 'm/notes.htm'].sort();
  const [best] = alignPaths(A, B);
  assert.equal([best.prefixA, best.prefixB], ['docs/', 'm/']);
  const pairs = alignedPairs(A, B, best).map(([i, j]) => `${A[i]} ${B[j]}`);
  // an index page saved under another name is not its folder's URL: left out, as a page missing from the copy
  assert.equal(pairs.sort(), ['docs/ m/', 'docs/faq.html m/faq.htm', 'docs/intro.html m/intro.htm', 'docs/lib/os.html m/lib/os.htm', 'docs/lib/sys.html m/lib/sys.htm']);
  // wget's --adjust-extension: pages served without an extension saved with .html
  const C = ['guide/start', 'guide/setup', 'guide/faq'].sort(), D = ['copy/guide/start.html', 'copy/guide/setup.html', 'copy/guide/faq.html'].sort();
  const [al] = alignPaths(C, D);
  assert.equal([al.prefixA, al.prefixB, al.common], ['guide/', 'copy/guide/', 3]);
  assert.is(alignedPairs(C, D, al).length, 3);
  // a name the same but for its extension keeps its exact counterpart first
  assert.equal(alignedPairs(['a.htm', 'a.html'], ['a.htm', 'a.html'], { prefixA: '', prefixB: '' }), [[0, 0], [1, 1]]);
  assert.equal(['x/os.HTML', 'x/a.shtml?q=1', 'x/index.htm', 'x/data.json'].map(pathKey), ['x/os', 'x/a?q=1', 'x/index', 'x/data.json']);
});

test.run();
