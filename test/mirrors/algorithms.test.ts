import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rankCombined } from '../../src/mirrors/combined.js';
import { linkTest, rankConn } from '../../src/mirrors/conn.js';
import { truthJudge } from '../../src/mirrors/evaluate.js';
import { rankMirrors, rankAll } from '../../src/mirrors/find.js';
import { rankHconn } from '../../src/mirrors/hconn.js';
import { HostSet } from '../../src/mirrors/host-set.js';
import { rankIp4 } from '../../src/mirrors/ip-rank.js';
import { LinkTable } from '../../src/mirrors/links.js';
import { Ranking } from '../../src/mirrors/ranking.js';
import { rankPaths, rankPrefix, rankShingles } from '../../src/mirrors/url-rank.js';
import { makeWorld } from './world.js';

const world = makeWorld({ seed: 7 });
const hosts = HostSet.fromUrls(world.urls, { ips: world.ips });
const links = LinkTable.fromPairs(hosts, world.links);
const all = rankAll(hosts, links, undefined);
const { judge } = truthJudge(hosts, world.truth);
const name = (r: Ranking, i: number) => [hosts.hosts[r.a[i]], hosts.hosts[r.b[i]]];
const sameTopic = (r: Ranking, i: number) => world.topic.get(hosts.hosts[r.a[i]]) === world.topic.get(hosts.hosts[r.b[i]]);
const K = 3 * world.truth.length;

/** True and false positives in a ranking's top k, and how many of the false ones are same-topic pairs. */
function count(r: Ranking, k = K) {
  let tp = 0, fp = 0, same = 0;
  for (let i = 0; i < Math.min(k, r.length); i++) {
    if (judge(r.a[i], r.b[i])) tp++;
    else {
      fp++;
      if (sameTopic(r, i)) same++;
    }
  }
  return { tp, fp, same };
}

test('the generated web holds what the tests need', () => {
  assert.is(hosts.size, world.kind.size);
  assert.is(world.truth.length, 16);
  assert.ok([...world.kind.values()].filter((k) => k === 'vhost').length >= 20);
});

test('IP4: aliases in small clusters come first; precision falls as clusters grow into virtual hosting', () => {
  const r = all.ip4!;
  const sizes = Array.from({ length: r.length }, (_, i) => r.evidence(i).clusterSize as number);
  for (let i = 1; i < sizes.length; i++) assert.ok(sizes[i] >= sizes[i - 1], 'clusters in increasing size');
  const bySize = new Map<number, { n: number; hits: number }>();
  sizes.forEach((s, i) => {
    const b = bySize.get(s) ?? { n: 0, hits: 0 };
    b.n++;
    b.hits += judge(r.a[i], r.b[i]);
    bySize.set(s, b);
  });
  const precisions = [...bySize.entries()].sort((x, y) => x[0] - y[0]).map(([, b]) => b.hits / b.n);
  assert.is(precisions[0], 1, 'two-host clusters are aliases');
  assert.is(precisions[precisions.length - 1], 0, 'the virtual-hosting cluster holds no mirrors');
  for (let i = 1; i < precisions.length; i++) assert.ok(precisions[i] <= precisions[i - 1]);
  // The virtual-hosting address explains every false pair.
  for (let i = 0; i < r.length; i++) if (!judge(r.a[i], r.b[i])) assert.is(r.evidence(i).ip, world.vhostIp);
});

test('IP4 lists at most 200 pairs of a large cluster, distinct and seeded', () => {
  const urls = Array.from({ length: 30 }, (_, h) => `http://site${h}.example/`);
  const ips = new Map(Array.from({ length: 30 }, (_, h) => [`site${h}.example`, ['192.0.2.1']]));
  const set = HostSet.fromUrls(urls, { minUrls: 1, ips });
  const r = rankIp4(set);
  assert.is(r.length, 200); // 435 pairs in the cluster
  assert.is(new Set(Array.from({ length: r.length }, (_, i) => r.key(i))).size, 200);
  const again = rankIp4(set);
  assert.equal([...again.a], [...r.a]);
  assert.equal([...again.b], [...r.b]);
  const other = rankIp4(set, { seed: 1 });
  assert.not.equal(Array.from({ length: 200 }, (_, i) => other.key(i)), Array.from({ length: 200 }, (_, i) => r.key(i)));
  assert.is(rankIp4(set, { pairsPerCluster: 500 }).length, 435);
});

test('IP3: at most 5 pairs per subnet, and it finds mirrors placed on their original\'s subnet', () => {
  const r = all.ip3!;
  const per = new Map<string, number>();
  for (let i = 0; i < r.length; i++) per.set(r.evidence(i).subnet as string, (per.get(r.evidence(i).subnet as string) ?? 0) + 1);
  assert.ok([...per.values()].every((n) => n <= 5));
  assert.is(per.get('192.0.2'), 5);
  const mirrorsFound = Array.from({ length: r.length }, (_, i) => i).filter((i) => judge(r.a[i], r.b[i]) && world.kind.get(hosts.hosts[r.a[i]]) !== 'alias');
  assert.ok(mirrorsFound.length >= 3);
});

test('hosts: high precision, low recall: only pairs whose names share several labels', () => {
  const r = all.hosts!;
  const c = count(r);
  assert.is(c.fp, 0);
  assert.ok(c.tp >= 4 && c.tp < world.truth.length / 2, `${c.tp}`);
  for (let i = 0; i < r.length; i++) {
    const [a, b] = name(r, i);
    assert.ok(a.split('.').slice(-2).join('.') === b.split('.').slice(-2).join('.'), `${a} ${b}`);
  }
});

test('hconn confuses same-topic hosts: its false positives link to the same hubs, unlike paths\'', () => {
  for (const r of [all.hconn1!, all.hconn2!]) {
    const c = count(r);
    assert.ok(c.tp >= 14, `${r.algorithm} finds the mirrors (${c.tp})`);
    assert.ok(c.fp > 10);
    assert.ok(c.same / c.fp >= 0.9, `${r.algorithm}: ${c.same}/${c.fp} false positives share a topic`);
  }
  const p = count(all.paths!);
  // Three topics: unrelated pairs share one a third of the time.
  assert.ok(p.same / p.fp < 0.6, `paths: ${p.same}/${p.fp}`);
});

test('conn filters paths\' false positives and keeps its mirrors', () => {
  const paths = all.paths!, conn = all.conn!;
  const inPaths = new Map(Array.from({ length: paths.length }, (_, i) => [paths.key(i), i]));
  let last = -1;
  for (let i = 0; i < conn.length; i++) {
    const at = inPaths.get(conn.key(i));
    assert.ok(at !== undefined && at > last, 'conn is a subsequence of paths');
    last = at!;
    assert.is(conn.score[i], paths.score[at!]);
  }
  const p = count(paths), c = count(conn);
  assert.ok(p.fp >= 20);
  assert.ok(c.fp <= 2, `${c.fp}`);
  assert.ok(c.tp >= p.tp, `${c.tp} vs ${p.tp}`);
  const e = conn.evidence(0);
  assert.ok((e.equivalentPaths as number) >= 0.75 * (e.testedPaths as number));
});

test('conn link test: f of the union common, m of the tested paths equivalent (§3.3)', () => {
  const x = new Map([['p1', ['/a', '/b', '/c', '/d', '/e', '/f', '/g', '/h', '/i', '/j']], ['p2', ['/a']], ['p3', ['/z']], ['only-x', ['/q']]]);
  const y = new Map([['p1', ['/a', '/b', '/c', '/d', '/e', '/f', '/g', '/h', '/i', '/k']], ['p2', ['/a']], ['p3', ['/y']]]);
  // p1: 9 common of 11 in the union = 0.82 < 0.9; p2 equivalent; p3 not; only-x untested.
  assert.equal(linkTest(x, y, 10, 0.9), { tested: 3, equivalent: 1 });
  assert.equal(linkTest(x, y, 10, 0.8), { tested: 3, equivalent: 2 });
  // n = 1 from each host: p1 from both (highest out-degree), tested once.
  assert.equal(linkTest(x, y, 1, 0.8), { tested: 1, equivalent: 1 });
  // Same-host links are relative, so a mirror's own links match; a link to the other host does not.
  const set = HostSet.fromUrls(['http://a.org/x', 'http://a.org/y', 'http://b.org/x', 'http://b.org/y'], { minUrls: 1 });
  const t = LinkTable.fromPairs(set, [['http://a.org/x', 'http://a.org/y'], ['http://b.org/x', 'http://b.org/y'], ['http://a.org/y', 'http://c.org/'], ['http://b.org/y', 'http://c.org/']]);
  assert.equal([...t.outLinks[0]], [['x', ['/y']], ['y', ['c.org/']]]);
  assert.is(rankConn(set, t).length, 1);
  assert.is(rankConn(set, LinkTable.fromPairs(set, [])).length, 0, 'no links, no evidence');
  assert.throws(() => rankConn(set, t, { f: 2 }), /expected number 0\.\.1 for f, got 2/);
});

test('prefix and shingles see mirrors whose crawled pages do not overlap; paths cannot', () => {
  const files = (dir: string, parity: number) => Array.from({ length: 10 }, (_, i) => `${dir}/report${2 * i + parity}.html`);
  const dirs = ['papers', 'papers/drafts', 'talks', 'software'];
  const urls = [
    ...dirs.flatMap((d) => files(d, 0)).map((p) => `http://www.lab.example/${p}`),
    ...dirs.flatMap((d) => files(d, 1)).map((p) => `http://mirror.univ.example/${p}`),
    ...['news', 'shop', 'blog', 'team'].flatMap((d) => files(d, 0)).map((p) => `http://other.example/${p}`),
    ...['recipes', 'forum', 'papers'].flatMap((d) => files(d, 0).map((f) => f.replace('report', 'item'))).map((p) => `http://third.example/${p}`),
  ];
  const set = HostSet.fromUrls(urls);
  const pair = [set.id('mirror.univ.example'), set.id('www.lab.example')].join();
  const paths = rankPaths(set);
  assert.ok(!Array.from({ length: paths.length }, (_, i) => `${paths.a[i]},${paths.b[i]}`).includes(pair));
  for (const r of [rankPrefix(set), rankShingles(set)]) {
    assert.is(`${r.a[0]},${r.b[0]}`, pair, r.algorithm);
    assert.ok(r.score[0] > 2 * (r.score[1] ?? 0), `${r.algorithm}: ${r.score[0]} vs ${r.score[1]}`);
  }
});

test('hconn on a hand-made host graph: in-degree weights, self-links left out', () => {
  const set = HostSet.fromUrls(['http://a.org/', 'http://b.org/', 'http://c.org/'], { minUrls: 1 });
  const edges: Array<[string, string, number]> = [['a.org', 'x.org', 5], ['a.org', 'y.org', 1], ['b.org', 'x.org', 2], ['b.org', 'y.org', 3], ['c.org', 'x.org', 1], ['a.org', 'a.org', 50]];
  const t = LinkTable.fromHostEdges(set, edges);
  assert.is(t.hostEdges[0].has('a.org'), false);
  // p = 1 URL each: 10·log 1 → 1 edge kept per host: a→x, b→y, c→x. x has in-degree 2.
  const r1 = rankHconn(1, set, t);
  assert.is(r1.length, 1);
  assert.equal([set.hosts[r1.a[0]], set.hosts[r1.b[0]]], ['a.org', 'c.org']);
  assert.is(r1.score[0], 1);
});

test('combined orders by votes, then by best rank (§4.2.2)', () => {
  const set = HostSet.fromUrls(['a', 'b', 'c', 'd'].map((h) => `http://${h}.org/`), { minUrls: 1 });
  const mk = (alg: 'ip4' | 'paths' | 'prefix', pairs: Array<[number, number]>) =>
    new Ranking(alg, set, Uint32Array.from(pairs, (p) => p[0]), Uint32Array.from(pairs, (p) => p[1]), Float64Array.from(pairs, (_, i) => 1 - i / 10));
  const r = rankCombined(set, [mk('ip4', [[0, 1], [2, 3]]), mk('paths', [[1, 2], [2, 3], [0, 3]]), mk('prefix', [[0, 3], [1, 2]])]);
  // 03 and 12 both have two votes and a best rank of 1: host ids break the tie.
  assert.equal(Array.from({ length: r.length }, (_, i) => `${r.a[i]}${r.b[i]}:${r.score[i]}`), ['03:2', '12:2', '23:2', '01:1']);
  assert.equal(r.evidence(0), { votes: 2, bestRank: 1, ranks: { paths: 3, prefix: 1 } });
  assert.equal(r.algorithms(1), ['paths', 'prefix']);
  const shallow = rankCombined(set, [mk('ip4', [[0, 1], [2, 3]]), mk('paths', [[1, 2], [2, 3], [0, 3]])], { depth: 1 });
  assert.equal(Array.from({ length: shallow.length }, (_, i) => `${shallow.a[i]}${shallow.b[i]}`), ['01', '12']);
});

test('rankings are reproducible and independent of input order', () => {
  const shuffled = [...world.urls].reverse();
  const set = HostSet.fromUrls(shuffled, { ips: new Map([...world.ips].reverse()) });
  const again = rankAll(set, LinkTable.fromPairs(set, [...world.links].reverse()), undefined, {}, ['combined', 'conn', 'hconn2', 'shingles']);
  for (const alg of ['combined', 'conn', 'hconn2', 'shingles'] as const) {
    assert.equal([...again[alg]!.a], [...all[alg]!.a], alg);
    assert.equal([...again[alg]!.b], [...all[alg]!.b], alg);
  }
});

test('rankMirrors from plain inputs equals the ranking built step by step; bad options are rejected', () => {
  const f = rankMirrors({ urls: world.urls, ips: world.ips, links: world.links }, { algorithm: 'conn' });
  assert.equal([...f.ranking.a], [...all.conn!.a]);
  assert.equal([...f.ranking.b], [...all.conn!.b]);
  // Host-level edges feed hconn only.
  const edges = new Map<string, number>();
  for (const [s, d] of world.links) {
    const k = `${new URL(s).host} ${new URL(d).host}`;
    edges.set(k, (edges.get(k) ?? 0) + 1);
  }
  const h = rankMirrors({ urls: world.urls, hostEdges: [...edges].map(([k, n]) => [...k.split(' '), n] as [string, string, number]) }, { algorithm: 'hconn2' });
  assert.equal(Array.from({ length: 20 }, (_, i) => h.ranking.key(i)), Array.from({ length: 20 }, (_, i) => all.hconn2!.key(i)));
  assert.throws(() => rankMirrors({ urls: world.urls }, { algorithm: 'mirror' as never }), /expected one of ip4\|ip3.* for algorithm, got "mirror"/);
  assert.throws(() => rankMirrors({ urls: world.urls }, { depth: 3 } as never), /unknown option "depth"/);
});

test.run();
