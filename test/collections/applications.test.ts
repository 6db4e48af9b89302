// The applications of Section 5: the crawler avoid-list (keep policies, prefix and host rules that
// cover URLs not crawled yet, save and load) and search-result roll-up, checked against brute force
// over every crawled URL; and virtual pages, which join a partial copy through the pages it lacks.
import { virtualPages } from '../../src/collections/virtual-pages.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AvoidList, avoidList, type AvoidOptions } from '../../src/collections/avoid.js';
import { collectionsOfGraph, type ReplicatedCollections } from '../../src/collections/find.js';
import { HOLE } from '../../src/collections/matrix.js';
import { plantedCrawl, type PlantedCrawl } from '../../src/collections/planted.js';
import { replicatedCollections } from '../../src/collections/replicated.js';
import { rollUp } from '../../src/collections/rollup.js';
import { trivialFromLabels } from '../../src/collections/trivial.js';
import { ResembleError } from '../../src/errors.js';
import type { Document } from '../../src/graph/document.js';
import { WebGraph } from '../../src/graph/web-graph.js';
import { init } from '../../src/index.js';

await init();

const LINES2 = { kind: 'chunks', unit: 'lines', lines: 2, threshold: 4, markup: 'text' } as const;
const crawl = plantedCrawl({ collections: 6, copies: 4, pages: 20, laggingCopies: 1, partialMirrors: 1, noisePages: 300, seed: 9 });
const found = replicatedCollections(crawl.texts, crawl, { similarity: LINES2 });
const bytes = crawl.texts.map((t) => t.length);

/**
 * Brute force of the avoid rules: a page is redundant when it is in a collection not kept and the
 * kept one holds its column; a copy of `minRulePages` pages or more whose prefix holds no kept page
 * and at least `minCoverage` redundant pages is skipped whole.
 */
function expectedSkips(f: ReplicatedCollections, g: PlantedCrawl, keptRowOf: (k: number) => number, minCoverage = 0.9, minRulePages = 10): Uint8Array {
  const redundant = new Uint8Array(g.size), kept = new Uint8Array(g.size);
  const copies: Array<{ prefix: string; held: number }> = [];
  f.clusters.forEach((c, k) => {
    if (c.noise) return;
    const best = keptRowOf(k);
    for (let x = 0; x < c.cardinality; x++) {
      for (let col = 0; col < c.size; col++) {
        const p = c.pages[x * c.size + col];
        if (p === HOLE) continue;
        if (x === best) kept[p] = 1;
        else if (c.pages[best * c.size + col] !== HOLE) redundant[p] = 1;
      }
      if (x !== best) copies.push({ prefix: c.prefixes[x], held: c.held[x] });
    }
  });
  for (let p = 0; p < g.size; p++) if (kept[p]) redundant[p] = 0;
  const skip = Uint8Array.from(redundant);
  for (const { prefix, held } of copies) {
    const under = g.urls.map((u, p) => (u.startsWith(prefix) ? p : -1)).filter((p) => p >= 0);
    if (held < minRulePages || under.some((p) => kept[p])) continue;
    if (under.filter((p) => redundant[p]).length >= minCoverage * under.length) for (const p of under) skip[p] = 1;
  }
  return skip;
}

/** Most links from other hosts, then most pages held, then the first copy. */
const byInLinks = (f: ReplicatedCollections) => (k: number) => {
  const c = f.clusters[k];
  let best = 0;
  for (let x = 1; x < c.cardinality; x++) if (c.externalInLinks[x] > c.externalInLinks[best] || (c.externalInLinks[x] === c.externalInLinks[best] && c.held[x] > c.held[best])) best = x;
  return best;
};

test('avoid-list: shouldSkip equals the brute-force rules on every crawled URL, and covers URLs not crawled yet', () => {
  const list = avoidList(found, crawl, { pageBytes: bytes });
  const skip = expectedSkips(found, crawl, byInLinks(found));
  for (let p = 0; p < crawl.size; p++) assert.is(list.shouldSkip(crawl.urls[p]), skip[p] === 1, crawl.urls[p]);
  // The primaries get most links from other sites, so they are the copies kept; everything else of a collection is skipped.
  for (let p = 0; p < crawl.size; p++) if (crawl.collection[p] >= 0) assert.is(skip[p] === 1, crawl.copy[p] !== 0, crawl.urls[p]);
  // Mirror hosts hold copies of two collections and nothing else: host rules; a partial mirror's host too.
  const hosts = list.entries.filter((e) => e.kind === 'host').map((e) => e.value).sort();
  assert.equal(hosts, [...new Set(crawl.hosts.filter((h) => h.startsWith('mirror')))].sort());
  for (const e of list.entries) {
    if (e.kind === 'host') assert.ok(list.shouldSkip(`http://${e.value}/not/crawled/yet.html`));
    if (e.kind === 'prefix') assert.ok(list.shouldSkip(`${e.value}not-crawled-yet.html`));
    assert.is(e.keep.startsWith('http://www.coll'), true, e.keep);
  }
  assert.is(list.shouldSkip('http://www.coll0.example/docs/not-crawled-yet.html'), false, 'the kept copy is never skipped');
  const r = list.redundancy;
  let similar = 0, skipped = 0, saved = 0;
  for (let p = 0; p < crawl.size; p++) {
    if (found.trivial.size[found.trivial.rid[p]] > 1) similar++;
    if (skip[p]) { skipped++; saved += bytes[p]; }
  }
  assert.equal([r.pages, r.similarPages, r.skippedPages, r.savedBytes, r.lostPages], [crawl.size, similar, skipped, saved, 0]);
  assert.ok(r.similarPagesAfter < r.similarPages / 4, `${r.similarPagesAfter} of ${r.similarPages}`);
  assert.is(list.shouldSkip('not a url'), false);
  const mirrorPage = crawl.urls.findIndex((_u, p) => skip[p] === 1);
  // Another spelling of a skipped URL (host case, a fragment) is skipped too.
  assert.is(list.shouldSkip(crawl.urls[mirrorPage].replace(/^http:\/\/[^/]+/, (h) => h.toUpperCase()) + '#top'), true);
});

test('avoid-list: keep policies (first crawled, a given host, newest fetch date) and their fallbacks', () => {
  const firstRow = (k: number) => {
    const c = found.clusters[k];
    let best = 0, first = Infinity;
    for (let x = 0; x < c.cardinality; x++) for (let col = 0; col < c.size; col++) { const p = c.pages[x * c.size + col]; if (p !== HOLE && p < first) { first = p; best = x; } }
    return best;
  };
  const check = (options: AvoidOptions, keptRowOf: (k: number) => number) => {
    const list = avoidList(found, crawl, options);
    const skip = expectedSkips(found, crawl, keptRowOf);
    for (let p = 0; p < crawl.size; p++) assert.is(list.shouldSkip(crawl.urls[p]), skip[p] === 1, `${JSON.stringify(options.keep)} ${crawl.urls[p]}`);
  };
  check({ keep: 'first' }, firstRow);
  // The copy on a given host: mirror1-0 holds copies of collections 0 and 1; the others keep by in-links.
  const onHost = (k: number) => { const c = found.clusters[k]; for (let x = 0; x < c.cardinality; x++) if (crawl.hosts[crawl.hostOf[c.roots[x]]] === 'mirror1-0.example') return x; return byInLinks(found)(k); };
  check({ keep: 'host:mirror1-0.example' }, onHost);
  // Newest: the copy on mirror2-* is dated a day later than the others.
  const dates = crawl.urls.map((u) => (u.includes('//mirror2-') ? '2024-05-02T00:00:00Z' : '2024-05-01T00:00:00Z'));
  const newest = (k: number) => { const c = found.clusters[k]; for (let x = 0; x < c.cardinality; x++) if (crawl.hosts[crawl.hostOf[c.roots[x]]].startsWith('mirror2-')) return x; return byInLinks(found)(k); };
  check({ keep: 'newest', pageDates: dates }, newest);
  // Without dates newest cannot decide: in-links do.
  check({ keep: 'newest', pageDates: crawl.urls.map(() => undefined) }, byInLinks(found));
  for (const bad of [{ keep: 'oldest' }, { keep: 'host:' }, { keep: 'newest' }, { minCoverage: 2 }, { minRulePages: 0 }, { other: 1 }]) {
    assert.throws(() => avoidList(found, crawl, bad as never), (e: unknown) => e instanceof ResembleError && e.code === 'E_OPTION', JSON.stringify(bad));
  }
});

test('avoid-list: a prefix needs most of what was crawled under it to have a kept copy; below, URL by URL', () => {
  // One mirror host also holds pages of its own under a mirrored prefix: 4 pages beside a 20-page copy.
  const base = plantedCrawl({ collections: 2, copies: 2, pages: 20, laggingCopies: 0, noisePages: 0, collectionsPerHost: 1, seed: 12 });
  const mirrorHost = base.hosts.find((h) => h.startsWith('mirror'))!;
  const prefix = `http://${mirrorHost}/coll0/`;
  const urls = [...base.urls], texts = [...base.texts];
  for (let i = 0; i < 4; i++) { urls.push(`${prefix}own${i}.html`); texts.push(`own page ${i} of the mirror\nwith words of its own ${i}`); }
  const hostOf = Uint32Array.from(urls, (u) => base.hosts.indexOf(new URL(u).host));
  const linkOffsets = new Uint32Array(urls.length + 1);
  linkOffsets.set(base.linkOffsets);
  for (let i = base.size + 1; i <= urls.length; i++) linkOffsets[i] = linkOffsets[base.size];
  const g = { ...base, size: urls.length, urls, texts, hostOf, linkOffsets };
  const f = replicatedCollections(texts, g, { similarity: LINES2 });
  const strict = avoidList(f, g);
  assert.not.ok(strict.entries.some((e) => e.value === prefix), '20 of 24 pages is below 0.9');
  assert.ok(strict.shouldSkip(`${prefix}p1.html`));
  assert.not.ok(strict.shouldSkip(`${prefix}own0.html`));
  assert.not.ok(strict.shouldSkip(`${prefix}not-crawled-yet.html`));
  const loose = avoidList(f, g, { minCoverage: 0.8 });
  // The host holds nothing else, so the rule is the whole host.
  const e = loose.entries.find((x) => x.value === prefix || x.value === mirrorHost)!;
  assert.equal([e.kind, e.pages, e.redundant, e.lost], ['host', 24, 20, 4]);
  assert.ok(loose.shouldSkip(`${prefix}not-crawled-yet.html`));
  assert.is(loose.redundancy.lostPages, 4);
  // A small copy never becomes a prefix rule.
  const small = avoidList(f, g, { minCoverage: 0.8, minRulePages: 21 });
  assert.not.ok(small.entries.some((x) => x.kind !== 'url'));
});

test('avoid-list: save and load (versioned document, and the JSON lines of --avoid as earlier versions wrote them)', () => {
  const list = avoidList(found, crawl, { pageBytes: bytes });
  const again = AvoidList.load(list.save());
  assert.equal(again.entries, JSON.parse(JSON.stringify(list.entries)));
  assert.equal(again.redundancy, list.redundancy);
  assert.equal(JSON.parse(list.save()).version, 2);
  for (const u of [...crawl.urls, 'http://mirror1-0.example/coll0/new.html', 'http://elsewhere.example/']) assert.is(again.shouldSkip(u), list.shouldSkip(u), u);
  // The JSON lines of --avoid, with only the fields earlier versions had.
  const old = list.entries.map((e) => JSON.stringify({ kind: e.kind, value: e.value, pages: e.pages, bytes: e.bytes, keep: e.keep })).join('\n') + '\n';
  const fromLines = AvoidList.load(old);
  for (const u of crawl.urls) assert.is(fromLines.shouldSkip(u), list.shouldSkip(u), u);
  assert.is(AvoidList.load('').entries.length, 0);
  // Still constructible from entries, as a URL filter source is.
  assert.ok(new AvoidList([{ kind: 'prefix', value: 'http://a.example/x/', pages: 1, bytes: 0, keep: '' }], list.redundancy).shouldSkip('http://A.example/x/y'));
  const bad = ['{"format":"resemble-avoid-list","version":3,"entries":[]}', '{"format":"other","version":2}', '{"kind":"host","value":"a"}\nnot json', '{"kind":"path","value":"a"}'];
  for (const text of bad) assert.throws(() => AvoidList.load(text), (e: unknown) => e instanceof ResembleError && e.code === 'E_FORMAT', text);
});

test('roll-up: results of one collection fold into the first, replicas under it by copy; uncrawled URLs by prefix', () => {
  const page = (k: number, copy: number, t: number) => crawl.urls.findIndex((_u, p) => crawl.collection[p] === k && crawl.copy[p] === copy && crawl.template[p] === t);
  const noisePage = crawl.urls.findIndex((_u, p) => crawl.collection[p] < 0 && found.clusterOf[p] < 0);
  const uncrawled = crawl.urls[page(0, 2, 5)].replace(/p5\.html$/, 'not-crawled.html');
  const results = [
    crawl.urls[page(0, 1, 3)], crawl.urls[page(0, 2, 5)], crawl.urls[noisePage], crawl.urls[page(0, 1, 7)],
    '::not a url', crawl.urls[page(1, 0, 2)], crawl.urls[page(0, 3, 3)], 'http://elsewhere.example/', crawl.urls[page(0, 2, 6)], uncrawled,
  ];
  const { entries, errors } = rollUp(results, found, crawl);
  assert.equal(errors.map((e) => e.rank), [4]);
  assert.equal(entries.map((e) => [e.url, e.rank]), [
    [results[0], 0], [results[2], 2], [results[5], 5], [results[7], 7],
  ]);
  const first = entries[0];
  assert.equal(first.collection, [results[3]]);
  // Every other copy of collection 0 is listed once, with the results found in it.
  const hostOfCopy = (copy: number) => crawl.hosts[crawl.hostOf[page(0, copy, 0)]];
  assert.equal(first.replicas.map((r) => r.host).sort(), [0, 2, 3, 4].map(hostOfCopy).sort());
  const byHost = Object.fromEntries(first.replicas.map((r) => [r.host, r.results]));
  assert.equal(byHost[hostOfCopy(2)], [results[1], results[8], uncrawled]);
  assert.equal(byHost[hostOfCopy(3)], [results[6]]);
  assert.equal(byHost[hostOfCopy(0)], []);
  assert.equal([entries[1].cluster, entries[3].cluster], [-1, -1]);
  assert.equal(entries[2].replicas.length, 4);
  // A coverage out of range is rejected.
  assert.throws(() => rollUp(results, found, crawl, { minCoverage: -1 }), (e: unknown) => e instanceof ResembleError && e.code === 'E_OPTION');
});

/** Documents of a small site tree, copied on several hosts, each with relative links. */
function docs(copies: Array<{ base: string; pages: string }>, tree: Record<string, string[]>): Document[] {
  const out: Document[] = [];
  for (const { base, pages } of copies) {
    for (const name of pages) {
      const links = (tree[name] ?? []).map((l) => new URL(`${l}.html`, base).href);
      out.push({ url: `${base}${name}.html`, bytes: new TextEncoder().encode(`page ${name}`), links });
    }
  }
  return out;
}

test('virtual pages: a partial copy that lacks the pages joining its own is joined through them', () => {
  // A tree a → b, c; b → d, e; c → f, g, every page linking back to its parent and to a. Two full
  // copies; a partial one holding only d..g, whose links to a, b, c lead to pages the crawl lacks.
  const tree: Record<string, string[]> = { a: ['b', 'c'], b: ['a', 'd', 'e'], c: ['a', 'f', 'g'], d: ['a', 'b'], e: ['a', 'b'], f: ['a', 'c'], g: ['a', 'c'] };
  const all = docs([{ base: 'http://i.example/doc/', pages: 'abcdefg' }, { base: 'http://iii.example/x/doc/', pages: 'abcdefg' }, { base: 'http://ii.example/mirror/doc/', pages: 'defg' }], tree);
  const graph = WebGraph.fromDocuments(all);
  const labels = all.map((d) => d.url.slice(-6, -5).charCodeAt(0));
  const withVirtual = collectionsOfGraph(graph, trivialFromLabels(labels), { minSize: 1 });
  assert.is(withVirtual.clusters.length, 1);
  const c = withVirtual.clusters[0];
  assert.equal([c.cardinality, c.size, c.complete, Array.from(c.held).sort()], [3, 7, false, [4, 7, 7]]);
  assert.ok(withVirtual.stats.virtualPages >= 3);
  const without = collectionsOfGraph(graph, trivialFromLabels(labels), { minSize: 1, virtualPages: false });
  assert.equal(without.clusters.map((k) => k.cardinality), [2], 'd..g of the partial copy link to nothing crawled on their host');
});

test('virtual pages: a missing host root, or a folder of another copy, joins nothing', () => {
  // Host m holds copies of two manuals, X under /x/ and Y under /y/; every page links to the host's
  // home page /, which the crawl lacks, and X's pages also to a missing page of Y's folder.
  const tree: Record<string, string[]> = { a: ['b', '/'], b: ['a', '/'] };
  const all: Document[] = [];
  const add = (base: string, name: string, text: string, extra: string[] = []) => all.push({ url: `${base}${name}.html`, bytes: new TextEncoder().encode(text), links: [...tree[name].map((l) => new URL(l === '/' ? '/' : `${l}.html`, base).href), ...extra] });
  for (const [base, manual] of [['http://m.example/x/', 'X'], ['http://ox.example/x/', 'X'], ['http://m.example/y/', 'Y'], ['http://oy.example/y/', 'Y']] as const) {
    for (const name of ['a', 'b']) add(base, name, `${manual} ${name}`, manual === 'X' ? [new URL('../y/missing.html', base).href] : []);
  }
  const graph = WebGraph.fromDocuments(all);
  const text = all.map((d) => new TextDecoder().decode(d.bytes));
  const labels = text.map((t) => [...new Set(text)].indexOf(t));
  const got = collectionsOfGraph(graph, trivialFromLabels(labels), { minSize: 1 });
  assert.is(got.clusters.length, 2);
  for (const k of got.clusters) {
    const manuals = new Set(Array.from(k.pages).filter((p) => p !== HOLE).map((p) => text[p][0]));
    assert.is(manuals.size, 1, 'no cluster mixes the two manuals');
    assert.equal([k.cardinality, k.size], [2, 2]);
  }
});

test('virtual pages: a copy mirrored into a folder whose links climb to the host\'s missing home page is joined through it', () => {
  // A reference whose pages link only to its missing contents page (../index.html, outside the
  // copy's folder), origin under /doc/html/ref/, mirror under /1.81/ of a host whose root the crawl
  // lacks: there ../index.html is the host's home page, linked from /1.81/ alone.
  const names = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
  const all: Document[] = [];
  for (const base of ['http://origin.example/doc/html/ref/', 'http://mirror.example/1.81/']) {
    for (const name of names) all.push({ url: `${base}${name}.html`, bytes: new TextEncoder().encode(`ref ${name}`), links: [new URL('../index.html', base).href] });
  }
  const graph = WebGraph.fromDocuments(all);
  const labels = all.map((d) => names.indexOf(d.url.slice(-7, -5)));
  const got = collectionsOfGraph(graph, trivialFromLabels(labels), { minSize: 1 });
  assert.equal(got.clusters.map((k) => [k.cardinality, k.size, k.complete]), [[2, 6, true]], 'one cluster of the two full copies');
  const without = collectionsOfGraph(graph, trivialFromLabels(labels), { minSize: 1, virtualPages: false });
  assert.is(without.clusters.length, 0, 'no link joins two pages of a copy');
  // The same copies with an unrelated folder of the mirror host linking to its home page too: the
  // home page is no longer one copy's, and only the origin's missing contents page is left to join.
  const more = [...all, ...['u0', 'u1'].map((name) => ({ url: `http://mirror.example/other/${name}.html`, bytes: new TextEncoder().encode(`other ${name}`), links: ['http://mirror.example/index.html'] }))];
  const mixed = collectionsOfGraph(WebGraph.fromDocuments(more), trivialFromLabels([...labels, 100, 101]), { minSize: 1 });
  assert.equal(mixed.clusters.length, 0, 'a home page linked from two folders joins nothing');
});

test('virtual pages: two releases side by side under one folder, linking up to the host\'s missing root page, stay two copies', () => {
  // A reference of six pages in a ring (p0 → p1 → … → p0), every page also linking to the host's
  // /index.html, which the crawl lacks (as Sphinx pages link up to /bugs.html): on the origin, and
  // twice on a mirror host, under /docs/1.80/ and /docs/1.81/ side by side. The missing root page
  // is linked from two copies of each page, in two folders: it is no copy's own, and joins nothing.
  const names = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
  const all: Document[] = [];
  for (const base of ['http://origin.example/ref/', 'http://mirror.example/docs/1.80/', 'http://mirror.example/docs/1.81/']) {
    names.forEach((name, i) => all.push({ url: `${base}${name}.html`, bytes: new TextEncoder().encode(`ref ${name}`),
      links: [new URL(`${names[(i + 1) % names.length]}.html`, base).href, new URL('/index.html', base).href] }));
  }
  const graph = WebGraph.fromDocuments(all);
  const labels = all.map((d) => names.indexOf(d.url.slice(-7, -5)));
  const got = collectionsOfGraph(graph, trivialFromLabels(labels), { minSize: 1 });
  assert.equal(got.clusters.map((k) => [k.cardinality, k.size, k.complete]), [[3, 6, true]], 'one cluster of the three copies');
  // the origin's missing home page is its copy's own; the mirror host's is linked from two copies
  assert.equal(virtualPages(graph, trivialFromLabels(labels)).urls, ['http://origin.example/index.html']);
});

test.run();
