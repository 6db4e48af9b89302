import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HostSet } from '../../src/mirrors/host-set.js';
import { mirroringTest, samplePaths, verifyRanking, type Content, type ContentSource } from '../../src/mirrors/mirroring-test.js';
import { MirrorPool } from '../../src/mirrors/pool.js';
import { Random } from '../../src/mirrors/random.js';
import { Ranking } from '../../src/mirrors/ranking.js';
import { jaccard, shingleSet } from './world.js';

// A local content source: URL → text, null for a page known to fail, absent for unknown.
const rng = new Random(3, 'pages');
const text = () => Array.from({ length: 60 }, () => `w${rng.int(400)}`).join(' ');
const PATHS = Array.from({ length: 40 }, (_, i) => `dir${i % 4}/page${String(i).padStart(2, '0')}.html`).sort();
const original = new Map(['', ...PATHS].map((p) => [p, text()]));
const pages = new Map<string, Content>();
const urls: string[] = [];
function host(name: string, content: (path: string) => Content, paths = ['', ...PATHS]) {
  for (const p of paths) {
    urls.push(`http://${name}/${p}`);
    const c = content(p);
    if (c !== undefined) pages.set(`http://${name}/${p}`, c);
  }
}
const same = (p: string) => original.get(p)!;
const planted = new Set(PATHS.filter((_, i) => i % 2 === 1));
const missing = new Set(PATHS.filter((_, i) => i % 3 === 0));
const unknown = new Set(PATHS.filter((_, i) => i % 4 === 1));
host('m1.org', same);
host('m2.org', same);
host('m3.org', (p) => `${same(p)} local banner`);
host('diff.org', (p) => (planted.has(p) ? text() : same(p)));
host('root.org', (p) => (p === '' ? text() : same(p)));
host('part.org', (p) => (missing.has(p) ? null : same(p)));
host('gaps.org', (p) => (unknown.has(p) ? undefined : same(p)));
host('down.org', (p) => (p === '' ? null : same(p)));
host('small1.org', same, ['', ...PATHS.slice(0, 4)]);
host('small2.org', same, ['', ...PATHS.slice(0, 4)]);
// Paths in both URL lists that fail on both hosts are ignored.
host('dead1.org', (p) => (p.startsWith('dead') ? null : same(p)), ['', ...PATHS, 'dead/1', 'dead/2', 'dead/3']);
host('dead2.org', (p) => (p.startsWith('dead') ? null : same(p)), ['', ...PATHS, 'dead/1', 'dead/2', 'dead/3']);

const hosts = HostSet.fromUrls(urls, { minUrls: 1 });
const id = (h: string) => hosts.id(h);
const sets = new Map<string, Set<number>>();
const similarity = (a: Uint8Array | string, b: Uint8Array | string) => {
  const of = (x: string) => sets.get(x) ?? (sets.set(x, shingleSet(x)), sets.get(x)!);
  return jaccard(of(a as string), of(b as string));
};
let calls = 0;
const source: ContentSource = (url) => {
  calls++;
  return pages.get(url);
};

test('samplePaths takes k paths at equal intervals of the sorted list', () => {
  const letters = 'abcdefghijklmnopqrstuvwxyz'.split('');
  assert.equal(samplePaths(letters, 5), ['a', 'f', 'k', 'p', 'u']);
  assert.equal(samplePaths(letters.slice(0, 3), 15), ['a', 'b', 'c']);
  assert.is(samplePaths(PATHS, 15).length, 15);
});

test('mirrors: 10 sampled paths highly similar; a small host passes when every testable path does', async () => {
  const r = await mirroringTest(hosts, id('m1.org'), id('m3.org'), source, { similarity });
  assert.is(r.verdict, 'mirror');
  assert.equal([r.tested, r.similar], [10, 10]);
  const small = await mirroringTest(hosts, id('small1.org'), id('small2.org'), source, { similarity });
  assert.is(small.verdict, 'mirror');
  assert.equal([small.tested, small.similar], [4, 4]);
  const dead = await mirroringTest(hosts, id('dead1.org'), id('dead2.org'), source, { similarity });
  assert.is(dead.verdict, 'mirror');
});

test('a planted mismatch on a common path ends the test with that path', async () => {
  const r = await mirroringTest(hosts, id('diff.org'), id('m1.org'), source, { similarity });
  assert.is(r.verdict, 'mismatch');
  assert.ok(planted.has(r.path!), r.path);
  assert.ok(r.resemblance! < 0.5);
  assert.ok(r.similar < 10);
  const root = await mirroringTest(hosts, id('m1.org'), id('root.org'), source, { similarity });
  assert.equal([root.verdict, root.path, root.tested], ['mismatch', '', 0]);
});

test('a path failing on one host only makes a partial mirror; unknown pages are skipped', async () => {
  const r = await mirroringTest(hosts, id('m1.org'), id('part.org'), source, { similarity });
  assert.is(r.verdict, 'partial');
  assert.ok(missing.has(r.path!), r.path);
  assert.match(r.reason, 'part.org');
  const gaps = await mirroringTest(hosts, id('gaps.org'), id('m2.org'), source, { similarity });
  assert.is(gaps.verdict, 'mirror');
  assert.ok(gaps.unknown! > 0);
  const down = await mirroringTest(hosts, id('down.org'), id('m2.org'), source, { similarity });
  assert.is(down.verdict, 'failure');
  assert.match(down.reason, 'root page of down.org failed');
});

test('the verdict depends on the seed only through the order of tests, and an async source works', async () => {
  const slow: ContentSource = async (url) => pages.get(url);
  for (const seed of [1, 2, 3]) {
    const r = await mirroringTest(hosts, id('diff.org'), id('m1.org'), slow, { similarity, seed });
    assert.is(r.verdict, 'mismatch');
  }
  let error: unknown;
  try {
    await mirroringTest(hosts, 0, 1, source, { similarity, samplePaths: 0 });
  } catch (e) {
    error = e;
  }
  assert.match(String(error), /expected integer 1\.\.100000 for samplePaths, got 0/);
});

test('pooled verification: transitive mirrors and mismatches are inferred, not tested (§4.1.2)', async () => {
  const pairs: Array<[string, string]> = [
    ['m1.org', 'm2.org'],
    ['m2.org', 'm3.org'],
    ['m1.org', 'm3.org'], // inferred mirror
    ['diff.org', 'm1.org'],
    ['diff.org', 'm3.org'], // inferred mismatch
    ['m1.org', 'part.org'],
  ];
  const order = pairs.map(([x, y]) => [Math.min(id(x), id(y)), Math.max(id(x), id(y))]);
  const ranking = new Ranking('paths', hosts, Uint32Array.from(order, (p) => p[0]), Uint32Array.from(order, (p) => p[1]), Float64Array.from(order, (_, i) => 1 - i / 10));
  calls = 0;
  const { results, pool } = await verifyRanking(ranking, source, { similarity });
  assert.equal(results.map((r) => r.verdict), ['mirror', 'mirror', 'mirror', 'mismatch', 'mismatch', 'partial']);
  assert.equal(results.map((r) => r.inferred ?? false), [false, false, true, false, true, false]);
  assert.is(pool.relation(id('m2.org'), id('diff.org')), 'mismatch');
  assert.is(pool.relation(id('m3.org'), id('part.org')), 'mismatch', 'a persisting partial is final');
  assert.equal(pool.clusters(), [[id('m1.org'), id('m2.org'), id('m3.org')].sort((x, y) => x - y)]);
  // Inferred pairs fetch nothing: only the four tested pairs (and the partial's retest) used the source.
  const tested = calls;
  calls = 0;
  const solo = await verifyRanking(new Ranking('paths', hosts, ranking.a.slice(2, 3), ranking.b.slice(2, 3), new Float64Array(1)), source, { similarity });
  assert.is(solo.results[0].inferred, undefined);
  assert.ok(calls > 0 && tested > calls);
});

test('a tentative partial is tested again after the pass, and kept out of the pool until then', async () => {
  // The first request for a page of m2.org fails (a transient failure); later ones succeed.
  let failed = false;
  const flaky: ContentSource = (url) => {
    if (url.startsWith('http://m2.org/dir') && !failed) {
      failed = true;
      return null;
    }
    return pages.get(url);
  };
  const a = Math.min(id('m1.org'), id('m2.org')), b = Math.max(id('m1.org'), id('m2.org'));
  const ranking = new Ranking('paths', hosts, Uint32Array.of(a), Uint32Array.of(b), Float64Array.of(1));
  const r = await verifyRanking(ranking, flaky, { similarity });
  assert.is(r.results[0].verdict, 'mirror');
  failed = false;
  const once = await verifyRanking(ranking, flaky, { similarity, retestPartial: false });
  assert.is(once.results[0].verdict, 'partial');
  assert.is(once.pool.relation(a, b), 'mismatch');
});

test('MirrorPool: mismatches follow clusters through unions', () => {
  const p = new MirrorPool(6);
  p.addMismatch(0, 3);
  p.addMirror(0, 1);
  p.addMirror(3, 4);
  assert.is(p.relation(1, 4), 'mismatch');
  p.addMirror(4, 5);
  assert.is(p.relation(1, 5), 'mismatch');
  assert.is(p.relation(2, 5), undefined);
  p.addMirror(2, 1);
  assert.is(p.relation(2, 3), 'mismatch');
  assert.is(p.relation(0, 2), 'mirror');
  assert.equal(p.clusters(), [[0, 1, 2], [3, 4, 5]]);
});

test.run();
