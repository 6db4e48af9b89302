import { test } from 'uvu';
import { alignmentVerdict, normalQuantile, RULE_DEFAULTS, wilsonLower, type AlignmentCounts } from '../../src/mirrors/verdict.js';
import * as assert from 'uvu/assert';
import type { Content, ContentSource } from '../../src/mirrors/content.js';
import { HostSet } from '../../src/mirrors/host-set.js';
import { mirroringTest, verifyRanking } from '../../src/mirrors/mirroring-test.js';
import { MirrorPool } from '../../src/mirrors/pool.js';
import { Random } from '../../src/random.js';
import { Ranking } from '../../src/mirrors/ranking.js';
import { jaccard, shingleSet } from './world.js';

// A local content source: URL → text, null for a page known to fail, absent for unknown. No host
// serves its root page unless said: the test must not need it.
const rng = Random.stream(3, 'pages');
const words = () => Array.from({ length: 60 }, () => `w${rng.int(400)}`);
const PATHS = Array.from({ length: 40 }, (_, i) => `dir${i % 4}/page${String(i).padStart(2, '0')}.html`).sort();
const originalWords = new Map(PATHS.map((p) => [p, words()]));
const original = new Map(PATHS.map((p) => [p, originalWords.get(p)!.join(' ')]));
const pages = new Map<string, Content>();
const urls: string[] = [];
function host(name: string, content: (path: string) => Content, paths: string[] = PATHS, prefix = '') {
  for (const p of paths) {
    urls.push(`http://${name}/${prefix}${p}`);
    const c = content(p);
    if (c !== undefined) pages.set(`http://${name}/${prefix}${p}`, c);
  }
}
const same = (p: string) => original.get(p)!;
/** A distant release: three words of every page changed, exact 4-shingle Jaccard 45/69 ≈ 0.65 (highly similar at 0.6, not at 0.75). */
const distant = (p: string) => originalWords.get(p)!.map((w, i) => (i % 20 === 10 ? `${w}x` : w)).join(' ');
const planted = new Set(PATHS.filter((_, i) => (i * 7) % 5 < 2));
const missing = new Set(PATHS.filter((_, i) => i % 3 === 0));
const unknown = new Set(PATHS.filter((_, i) => i % 4 === 2));
host('m1.org', same);
host('m2.org', same);
host('m3.org', (p) => `${same(p)} local banner`);
host('diff.org', (p) => (planted.has(p) ? words().join(' ') : same(p)));
host('part.org', (p) => (missing.has(p) ? null : same(p)));
host('gaps.org', (p) => (unknown.has(p) ? undefined : same(p)));
host('dark.org', () => undefined);
host('old.org', distant);
host('small1.org', same, PATHS.slice(0, 4));
host('small2.org', same, PATHS.slice(0, 4));
host('one.org', same, PATHS.slice(0, 1));
host('shifted.org', same, PATHS, 'pub/copy/');
host('multi.org', same, PATHS, 'v1/');
host('multi.org', () => words().join(' '), PATHS, 'v2/');
host('other.org', () => words().join(' '), PATHS.map((p) => p.replace('page', 'item')));
host('192.0.2.7', same);
host('[2001:db8::7]', same);
// The root page of one host differs from its mirror's: one page, not a verdict.
urls.push('http://m1.org/', 'http://root.org/');
pages.set('http://m1.org/', words().join(' '));
pages.set('http://root.org/', words().join(' '));
host('root.org', same);

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
const run = (a: string, b: string, o = {}) => mirroringTest(hosts, id(a), id(b), source, { similarity, ...o });

test('mirrors without root pages: up to samplePaths aligned pages compared, every one highly similar', async () => {
  const r = await run('m1.org', 'm3.org');
  assert.is(r.verdict, 'mirror');
  assert.equal([r.tested, r.similar], [20, 20]);
  assert.equal([r.alignment!.prefixA, r.alignment!.prefixB, r.alignment!.common], ['/', '/', 40]);
  // two hosts of four pages, all alike: a handful of copied pages under minPages 5, a mirror from minPages 4 (every aligned page compared: no doubt left)
  const small = await run('small1.org', 'small2.org');
  assert.is(small.verdict, 'copied pages');
  assert.equal([small.tested, small.similar, small.copied!.pages], [4, 4, 4]);
  const four = await run('small1.org', 'small2.org', { minPages: 4 });
  assert.is(four.verdict, 'mirror');
  assert.is(four.extent, 'full');
  assert.is(four.alignment!.lowerShare, 1);
  // One differing root page among 41 common paths does not decide anything.
  const root = await run('m1.org', 'root.org');
  assert.is(root.verdict, 'mirror');
  assert.ok(root.alignment!.common === 41 && root.similar >= 19, JSON.stringify(root.alignment));
});

test('a prefix-shifted mirror is aligned (/pub/copy/ ↔ /) and compared across the alignment', async () => {
  const r = await run('m1.org', 'shifted.org');
  assert.is(r.verdict, 'mirror');
  const al = r.alignment!;
  const [m1, shifted] = id('m1.org') < id('shifted.org') ? [al.prefixA, al.prefixB] : [al.prefixB, al.prefixA];
  assert.equal([m1, shifted, al.common, al.compared, al.similar], ['/', '/pub/copy/', 40, 20, 20]);
  assert.match(r.reason, '/pub/copy/');
});

test('two collections side by side: the mirroring one decides, the other is reported as not mirroring', async () => {
  const r = await run('m1.org', 'multi.org');
  assert.is(r.verdict, 'mirror');
  const byPrefix = new Map(r.alignments.map((e) => [id('m1.org') < id('multi.org') ? e.prefixB : e.prefixA, e.verdict]));
  assert.is(byPrefix.get('/v1/'), 'mirror');
  assert.is(byPrefix.get('/v2/'), 'not mirror');
});

test('not mirror: half the common pages differ; a distant release is not a mirror at 0.75 but is at 0.6', async () => {
  const r = await run('diff.org', 'm1.org');
  assert.is(r.verdict, 'not mirror');
  assert.ok(r.similar < 15 && r.tested === 20, JSON.stringify(r));
  assert.match(r.reason, /15 needed/);
  const old = await run('old.org', 'm1.org');
  assert.is(old.verdict, 'not mirror');
  assert.ok(Math.abs(old.alignment!.meanResemblance - 45 / 69) < 1e-4, String(old.alignment!.meanResemblance));
  assert.is((await run('old.org', 'm1.org', { threshold: 0.6 })).verdict, 'mirror');
  const other = await run('other.org', 'm1.org');
  assert.is(other.verdict, 'not mirror');
  assert.match(other.reason, 'no common or aligned paths');
});

test('partial mirrors (pages failing on one host) and pages unknown to the source still give a verdict', async () => {
  const part = await run('m1.org', 'part.org');
  assert.is(part.verdict, 'mirror');
  assert.ok(part.alignment!.failed > 0 && part.tested === 20, JSON.stringify(part));
  const gaps = await run('gaps.org', 'm2.org');
  assert.is(gaps.verdict, 'mirror');
  assert.ok(gaps.alignment!.unknown > 0 && gaps.tested === 20);
});

test('undetermined, with the reason and counts: nothing known of one host, a one-page host', async () => {
  const dark = await run('dark.org', 'm1.org');
  assert.is(dark.verdict, 'undetermined');
  assert.is(dark.tested, 0);
  assert.match(dark.reason, /at most 0 aligned pages could be compared \(3 needed\)/);
  assert.ok(dark.alignment!.unknown > 0);
  // a one-page host whose page is a copy of one of m1's: every aligned page compared, a copy, too few for a mirror
  const one = await run('one.org', 'm1.org');
  assert.is(one.verdict, 'copied pages');
  assert.equal(one.copied, { pages: 1, paths: [one.copied!.paths[0]] });
  assert.match(one.reason, /^copied pages: 1 \(1 of 1 compared highly similar/);
  const oneOther = await run('one.org', 'other.org');
  assert.is(oneOther.verdict, 'undetermined');
  assert.match(oneOther.reason, /no common or aligned paths; .* has 1 path \(3 needed\)/);
});

test('hosts written as IP literals are tested like any other', async () => {
  assert.is((await run('192.0.2.7', '[2001:db8::7]')).verdict, 'mirror');
  assert.is((await run('192.0.2.7', 'diff.org')).verdict, 'not mirror');
});

test('an async source gives the same verdicts; options are validated', async () => {
  const slow: ContentSource = async (url) => pages.get(url);
  for (const [a, b] of [['diff.org', 'm1.org'], ['m1.org', 'shifted.org'], ['dark.org', 'm1.org']]) {
    const x = await mirroringTest(hosts, id(a), id(b), slow, { similarity });
    const y = await run(a, b);
    assert.equal(x, y);
  }
  for (const [o, message] of [
    [{ samplePaths: 0 }, /expected integer 1\.\.100000 for samplePaths, got 0/],
    [{ threshold: 2 }, /threshold/],
    [{ seed: 1 }, /seed/],
  ] as const) {
    let error: unknown;
    try {
      await mirroringTest(hosts, 0, 1, source, { similarity, ...(o as object) });
    } catch (e) {
      error = e;
    }
    assert.match(String(error), message);
  }
});

test('verification tests every pair by default; a cycle of mirrors is fine; --infer skips implied pairs', async () => {
  const pairs: Array<[string, string]> = [
    ['m1.org', 'm2.org'],
    ['m2.org', 'm3.org'],
    ['m1.org', 'm3.org'], // implied mirror: the cycle closes
    ['diff.org', 'm1.org'],
    ['diff.org', 'm3.org'], // implied mismatch
    ['m1.org', 'dark.org'],
  ];
  const order = pairs.map(([x, y]) => [Math.min(id(x), id(y)), Math.max(id(x), id(y))]);
  const ranking = new Ranking('paths', hosts, Uint32Array.from(order, (p) => p[0]), Uint32Array.from(order, (p) => p[1]), Float64Array.from(order, (_, i) => 1 - i / 10));
  calls = 0;
  const { results, pool } = await verifyRanking(ranking, source, { similarity });
  assert.equal(results.map((r) => r.verdict), ['mirror', 'mirror', 'mirror', 'not mirror', 'not mirror', 'undetermined']);
  assert.ok(results.every((r) => !r.inferred));
  assert.is(pool.relation(id('m2.org'), id('diff.org')), 'mismatch');
  assert.is(pool.relation(id('m1.org'), id('dark.org')), undefined, 'undetermined is not pooled');
  assert.equal(pool.clusters(), [[id('m1.org'), id('m2.org'), id('m3.org')].sort((x, y) => x - y)]);
  const all = calls;
  calls = 0;
  const inferred = await verifyRanking(ranking, source, { similarity, infer: true });
  assert.equal(inferred.results.map((r) => r.verdict), results.map((r) => r.verdict));
  assert.equal(inferred.results.map((r) => r.inferred ?? false), [false, false, true, false, true, false]);
  assert.ok(calls < all, `${calls} < ${all}`);
  const top2 = await verifyRanking(ranking, source, { similarity, top: 2 });
  assert.is(top2.results.length, 2);
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
  // Joining two clusters once called a mismatch: the mirror wins, no cluster mismatches itself.
  p.addMirror(0, 3);
  assert.is(p.relation(1, 5), 'mirror');
  assert.equal(p.clusters(), [[0, 1, 2, 3, 4, 5]]);
});

test('the confidence bound: Wilson lower ends against their closed forms, finite-population corrected', () => {
  // s of n with N unbounded: the textbook Wilson lower end at z = 1.959964
  const z = 1.959963985;
  const wilson = (s: number, n: number) => { const p = s / n; return (p + z * z / (2 * n) - z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))) / (1 + z * z / n); };
  for (const [s, n] of [[20, 20], [15, 20], [14, 20], [3, 3], [0, 5]]) assert.ok(Math.abs(wilsonLower(s, n, 1e12, 0.95) - wilson(s, n)) < 1e-6, `${s}/${n}`);
  assert.ok(Math.abs(normalQuantile(0.95) - z) < 1e-8);
  assert.ok(Math.abs(normalQuantile(0.99) - 2.5758293035) < 1e-8);
  // 15 of 20 passes (most aligned pages alike at 95%), 14 of 20 does not; 3 of 3 from a large population does not either
  assert.ok(wilsonLower(15, 20, 1000, 0.95) > 0.5 && wilsonLower(14, 20, 1000, 0.95) < 0.5 && wilsonLower(3, 3, 1000, 0.95) < 0.5);
  // every aligned page compared: the share itself; more of the population compared: a higher lower end
  assert.is(wilsonLower(3, 3, 3, 0.95), 1);
  assert.ok(wilsonLower(14, 20, 25, 0.95) > wilsonLower(14, 20, 1000, 0.95));
  assert.is(wilsonLower(0, 0, 10, 0.95), 0);
});

test('alignmentVerdict: support, share of a host, a handful of pages', () => {
  const rule = { ...RULE_DEFAULTS };
  const e = (o: Partial<AlignmentCounts>): AlignmentCounts => ({ compared: 20, similar: 20, common: 500, shareA: 0.5, shareB: 0.5, lowerShare: 0.85, ...o });
  assert.is(alignmentVerdict(e({}), rule), 'mirror');
  assert.is(alignmentVerdict(e({ similar: 14 }), rule), 'not mirror');
  assert.is(alignmentVerdict(e({ lowerShare: 0.45 }), rule), 'undetermined');
  assert.is(alignmentVerdict(e({ shareA: 0.003, shareB: 0.05 }), rule), 'copied pages');
  assert.is(alignmentVerdict(e({ shareA: 0.003, shareB: 0.5, bytesShareA: 0.5, bytesShareB: 0.02 }), rule), 'copied pages', 'pages and bytes of one host');
  assert.is(alignmentVerdict(e({ shareA: 0.003, shareB: 0.5, bytesShareA: 0.5, bytesShareB: 0.2 }), rule), 'mirror');
  assert.is(alignmentVerdict(e({ common: 3, compared: 3, similar: 3, shareA: 1, shareB: 1, lowerShare: 1 }), rule), 'copied pages', 'the issue\'s 3 of 3');
  assert.is(alignmentVerdict(e({ common: 40, compared: 2, similar: 2 }), rule), 'undetermined', 'two compared of 40 aligned');
});

test.run();

