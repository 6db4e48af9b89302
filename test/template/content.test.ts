// Content mode: the template kernel against its slow twin, template learning on generated sites,
// the same article under two templates, whole-page sketches unchanged, pages with too little
// content, and sketches of the two modes never compared.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nearDuplicates } from '../../src/cluster/near-duplicates.js';
import { ResembleIndex } from '../../src/cluster/resemble-index/resemble-index.js';
import { init, resemblance, sketchMany, ResembleError } from '../../src/index.js';
import { serializeSketchSet, deserializeSketchSet } from '../../src/advanced.js';
import { blockFingerprints, learnTemplates, NO_TABLE, sketchWithTemplates, tooLittleContent, contentEvidence } from '../../src/template/index.js';
import { contentTokenFingerprints, WHOLE_PAGE } from '../../src/sketch/content.js';

const utf8 = new TextEncoder();
import { blockFingerprintRef, blocksRef, contentTextFingerprintRef, contentTokensRef, pageTextFingerprintRef } from '../../src/reference/template.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';
import { minSRef } from '../../src/reference/sketch.js';
import { tokenFpsRef, tokensRef } from '../../src/reference/tokens.js';
import { rabinRef } from '../../src/reference/rabin.js';
import { rng, randomWords } from '../helpers/random.js';
import { articles, site } from './sites.js';
import { indexed } from '../cluster/helpers.js';

await init();
const hex = (a: ArrayLike<bigint>) => Array.from(a, (v) => v.toString(16));
const code = (f: () => unknown) => { try { f(); } catch (e) { return e instanceof ResembleError ? `${e.code}: ${e.message}` : String(e); } return 'no error'; };

/** Random HTML: block and inline tags, links (nested, unclosed), entities, comments, scripts, titles, stray '<'. */
function randomPage(r: () => number): string {
  const parts: string[] = [];
  const n = 5 + Math.floor(r() * 60);
  const tags = ['p', 'div', 'li', 'td', 'h2', 'br', 'section', 'span', 'em', 'a', 'B', 'A', 'blockquote', 'figcaption', 'x-widget'];
  for (let i = 0; i < n; i++) {
    const x = r();
    if (x < 0.35) parts.push(randomWords(r, 1 + Math.floor(r() * 12), 60).join(' '));
    else if (x < 0.7) { const t = tags[Math.floor(r() * tags.length)]; parts.push(r() < 0.5 ? `<${t} class="c">` : `</${t}>`); }
    else if (x < 0.75) parts.push('<title>' + randomWords(r, 3, 60).join(' ') + '</title>');
    else if (x < 0.8) parts.push('AT&amp;T &eacute;t&eacute; caf&#233;');
    else if (x < 0.84) parts.push('<!-- <p>hidden</p> -->');
    else if (x < 0.87) parts.push('<script>if (a < b) { document.write("<p>x</p>") }</script>');
    else if (x < 0.9) parts.push(' a < b and c <3 d ');
    else if (x < 0.93) parts.push('Ünïcödé ΣΊΣΥΦΟΣ 東京 ');
    else parts.push('<a href="/x">' + randomWords(r, 1 + Math.floor(r() * 4), 60).join(' ') + '</a>');
  }
  return parts.join(r() < 0.5 ? ' ' : '');
}

test('block fingerprints equal the reference on random pages', () => {
  const r = rng(11);
  const docs = Array.from({ length: 300 }, () => randomPage(r));
  const got = blockFingerprints(docs);
  for (let i = 0; i < docs.length; i++) {
    const want = blocksRef(docs[i]).map(blockFingerprintRef);
    assert.equal(hex(got.values.subarray(got.offsets[i], got.offsets[i + 1])), hex(want), `page ${i}: ${docs[i].slice(0, 200)}`);
  }
});

test('block fingerprints do not depend on what the kernels were configured for before (plain text, characters)', () => {
  const r = rng(13);
  const docs = Array.from({ length: 100 }, () => randomPage(r));
  const fresh = blockFingerprints(docs);
  for (const options of [{ markup: 'text' as const }, { unit: 'char' as const, w: 4 }]) {
    sketchMany(['plain <b>text</b> read just before', 'another one'], options);
    const after = blockFingerprints(docs);
    assert.equal(hex(after.values), hex(fresh.values), JSON.stringify(options));
    assert.equal(Array.from(after.tokens), Array.from(fresh.tokens), `token counts, ${JSON.stringify(options)}`);
    assert.equal(Array.from(after.links), Array.from(fresh.links));
  }
});

test('content sketches equal MIN_s over the reference content tokens, with tables, link limits and thin pages', () => {
  const r = rng(12);
  const docs = Array.from({ length: 200 }, () => randomPage(r));
  const blocks = blockFingerprints(docs);
  // two tables: some blocks of the first pages, sorted and distinct
  const pick = (a: number, b: number) => [...new Set(blocks.values.subarray(blocks.offsets[a], blocks.offsets[b]))].filter(() => r() < 0.6).sort((x, y) => (x < y ? -1 : 1));
  const t0 = pick(0, 5), t1 = pick(5, 12);
  const values = BigUint64Array.from([...t0, ...t1]);
  const offsets = Uint32Array.from([0, t0.length, t0.length + t1.length]);
  // every fourth page sketched whole (WHOLE_PAGE): the whole-page sketch, however little content it has
  const docTable = Uint32Array.from(docs, (_, i) => (i % 4 === 3 ? WHOLE_PAGE : i % 3 === 2 ? NO_TABLE : i % 3));
  const page = sketchMany(docs, { s: 16, w: 3 });
  let keyed = 0;
  for (const [linkDensity, minContent] of [[0.5, 30], [0.2, 5], [1, 0]] as const) {
    const set = sketchMany(docs, { content: 'main', linkDensity, minContent, s: 16, w: 3, templates: { values, offsets, docTable } });
    for (let i = 0; i < docs.length; i++) {
      if (docTable[i] === WHOLE_PAGE) {
        assert.equal(hex(set.get(i).values), hex(minSRef(shingleValuesRef(docs[i], { w: 3 }), 16)), `page ${i} sketched whole`);
        assert.equal(hex(set.get(i).values), hex(page.get(i).values));
        assert.equal([set.tokens[i], set.rawFp[i], set.lexicalFp[i], set.shingleFp[i], set.cardinality[i], set.templateTokens![i]],
          [page.tokens[i], page.rawFp[i], page.lexicalFp[i], page.shingleFp[i], page.cardinality[i], 0], `page ${i} sketched whole: columns`);
        assert.not.ok(set.tooLittleContent(i));
        continue;
      }
      const table = new Set(docTable[i] === NO_TABLE ? [] : docTable[i] === 0 ? t0 : t1);
      const tokens = contentTokensRef(docs[i], table, Math.round(linkDensity * 1000), minContent);
      const row = set.get(i).values;
      assert.is(set.tokens[i], tokens.length, `page ${i}: content tokens`);
      if (tokens.length < minContent) {
        assert.ok(set.tooLittleContent(i), `page ${i} has too little content`);
        assert.is(row.length, 0);
        assert.is(set.lexicalFp[i], pageTextFingerprintRef(docs[i]), `page ${i}: the whole text's lexical fingerprint`);
        assert.is(set.shingleFp[i], contentTextFingerprintRef(docs[i], table, Math.round(linkDensity * 1000), minContent), `page ${i}: the title and content's shingle fingerprint`);
        if (set.shingleFp[i] !== 0n) keyed++;
        continue;
      }
      assert.not.ok(set.tooLittleContent(i));
      const want = minSRef(shingleValuesRef(tokens.join(' '), { w: 3, markup: 'text' }), 16);
      assert.equal(hex(row), hex(want), `page ${i}`);
      const all = blocksRef(docs[i]).reduce((n, b) => n + b.tokens.length, 0);
      assert.is(set.templateTokens![i] + set.tokens[i], all, `page ${i}: template + content = all tokens but the title`);
    }
  }
  assert.ok(keyed > 0, 'some thin pages have a title and content key');
});

test('content tokens (for bags of words) equal the reference content tokens; whole pages every token', () => {
  const r = rng(13);
  const docs = Array.from({ length: 200 }, () => randomPage(r));
  const blocks = blockFingerprints(docs);
  const table = [...new Set(blocks.values.subarray(blocks.offsets[0], blocks.offsets[8]))].filter(() => r() < 0.6).sort((x, y) => (x < y ? -1 : 1));
  const docTable = Uint32Array.from(docs, (_, i) => (i % 4 === 3 ? WHOLE_PAGE : i % 3 === 2 ? NO_TABLE : 0));
  const templates = { values: BigUint64Array.from(table), offsets: Uint32Array.of(0, table.length), docTable };
  for (const [linkDensity, minContent] of [[0.5, 30], [0.2, 5], [1, 0]] as const) {
    const got = contentTokenFingerprints(docs, templates, { linkDensity, minContent });
    for (let i = 0; i < docs.length; i++) {
      const want = docTable[i] === WHOLE_PAGE ? tokenFpsRef(docs[i])
        : contentTokensRef(docs[i], new Set(docTable[i] === NO_TABLE ? [] : table), Math.round(linkDensity * 1000), minContent).map((t) => rabinRef(utf8.encode(t)));
      assert.equal(hex(got[i]), hex(want), `page ${i} (${linkDensity}, ${minContent})`);
    }
  }
  assert.is(code(() => contentTokenFingerprints(docs, { ...templates, docTable: new Uint32Array(3) })).split(':')[0], 'E_OPTION');
});

test('template learning on generated sites recovers each known template exactly', () => {
  const all = articles(1, 120);
  const ids = Array.from({ length: 60 }, (_, i) => i);
  const sites = [site(2, 'www.alpha.example', all, ids.slice(0, 40)), site(3, 'beta.example', all, ids.slice(20, 60), 12)];
  const docs = sites.flatMap((s) => s.pages);
  const hosts = sites.flatMap((s) => s.pages.map(() => s.host));
  const learnt = learnTemplates(docs, hosts);
  assert.equal(learnt.hosts, ['www.alpha.example', 'beta.example']);
  assert.is(learnt.stats.trusted, 2);
  sites.forEach((s, t) => {
    const want = [...new Set(s.templateBlocks.map((text) => blockFingerprintRef({ tokens: tokensRef(text), links: 0 })))].sort((a, b) => (a < b ? -1 : 1));
    const got = learnt.tables.values.subarray(learnt.tables.offsets[t], learnt.tables.offsets[t + 1]);
    assert.equal(hex(got), hex(want), `${s.host}: the template, every block of it and nothing else`);
  });
  // a bounded sample learns the same template
  const small = learnTemplates(docs, hosts, { sample: 10, trustAfter: 8 });
  assert.equal(hex(small.tables.values), hex(learnt.tables.values));
  assert.is(small.stats.sampledPages, 20);
  // a host with fewer pages than trustAfter gets no table
  const few = learnTemplates(docs.slice(0, 5), hosts.slice(0, 5));
  assert.is(few.stats.trusted, 0);
  assert.ok(few.tables.docTable.every((t) => t === NO_TABLE));
});

test('one host serving two sites: each section learns its own template', () => {
  const all = articles(9, 80);
  const a = site(10, 'shared.example', all, Array.from({ length: 30 }, (_, i) => i));
  const b = site(11, 'shared.example', all, Array.from({ length: 30 }, (_, i) => i + 40), 12);
  const docs = [...a.pages, ...b.pages];
  const hosts = docs.map(() => 'shared.example');
  const sections = docs.map((_, i) => (i < a.pages.length ? 'a' : 'b'));
  const learnt = learnTemplates(docs, hosts, undefined, sections);
  assert.equal(learnt.hosts, ['shared.example', 'shared.example/a', 'shared.example/b']);
  assert.is(learnt.stats.sections, 2);
  const want = (t: string[]) => hex([...new Set(t.map((text) => blockFingerprintRef({ tokens: tokensRef(text), links: 0 })))].sort((x, y) => (x < y ? -1 : 1)));
  const table = (k: number) => hex(learnt.tables.values.subarray(learnt.tables.offsets[k], learnt.tables.offsets[k + 1]));
  assert.equal(table(1), want(a.templateBlocks));
  assert.equal(table(2), want(b.templateBlocks));
  assert.ok(learnt.tables.docTable.every((t, i) => t === (i < a.pages.length ? 1 : 2)));
  // without sections the host's one template is the first site's: the second keeps its template
  const one = learnTemplates(docs, hosts);
  assert.equal(hex(one.tables.values), want(a.templateBlocks));
});

test('the same article under two templates: equal content sketches; whole-page sketches far apart', () => {
  const all = articles(4, 80);
  const a = site(5, 'one.example', all, Array.from({ length: 30 }, (_, i) => i), 40);
  const b = site(6, 'two.example.org', all, Array.from({ length: 30 }, (_, i) => i + 20), 8);
  const docs = [...a.pages, ...b.pages];
  const hosts = docs.map((_, i) => (i < a.pages.length ? a.host : b.host));
  const { set } = sketchWithTemplates(docs, hosts, { content: 'main' });
  const page = sketchMany(docs);
  let shared = 0;
  for (let i = 0; i < a.pages.length; i++) {
    const j = b.article.indexOf(a.article[i]);
    if (a.article[i] < 0 || j < 0) continue;
    shared++;
    const k = a.pages.length + j;
    assert.equal(hex(set.get(i).values), hex(set.get(k).values), `article ${a.article[i]}`);
    assert.is(set.lexicalFp[i], set.lexicalFp[k]);
    assert.ok(resemblance(page.get(i), page.get(k)) < 0.5, 'whole pages differ by their templates');
    const e = contentEvidence(set, i)!;
    assert.ok(e.template > 0.2 && e.template < 0.9 && e.contentShingles === set.tokens[i] - 7);
  }
  assert.is(shared, 10);
  // clustering joins exactly the shared articles, lexically equivalent, and no index page
  const nd = nearDuplicates(set);
  for (const c of nd.clusters) {
    assert.is(c.size, 2);
    const [x, y] = c.members.map((m) => m.doc);
    assert.is(x < a.pages.length ? a.article[x] : -2, y >= a.pages.length ? b.article[y - a.pages.length] : -3);
    assert.is(c.members[1].kind, 'lexical');
  }
  assert.is(nd.clusters.count, 10);
});

test('pages that are all template are reported, not clustered; byte-identical copies stay identical; pages of links keep their links', () => {
  const all = articles(7, 60);
  const s = site(8, 'gamma.example', all, Array.from({ length: 30 }, (_, i) => i), 30, 6, 2);
  const index = s.pages.slice(-6);
  const listing = (titles: string[]) => index[0].replace(/<main>.*<\/main>/s, `<main><ul>${titles.map((t) => `<li><a href="/p">${t}</a></li>`).join('')}</ul></main>`);
  const ten = all.slice(0, 10).map((a) => a.title);
  const docs = [...s.pages, index[0], index[0].replace('<main><ul>', '<main><ul><li><a href="/z">one more</a></li>'),
    listing(ten), listing([...ten.slice(0, 9), all[20].title]), listing(all.slice(30, 40).map((a) => a.title))];
  const hosts = docs.map(() => s.host);
  const { set } = sketchWithTemplates(docs, hosts, { content: 'main' });
  const thin = tooLittleContent(set);
  const first = s.pages.length - 6, n = s.pages.length;
  assert.equal(thin, [...Array.from({ length: 6 }, (_, k) => first + k), n, n + 1], 'every short index page, its copies, and no other page');
  const nd = nearDuplicates(set);
  for (const c of nd.clusters) {
    for (const m of c.members) if (thin.includes(m.doc)) assert.ok(m.kind === 'identical' || m.kind === 'representative', `thin page ${m.doc} joined as ${m.kind}`);
  }
  // the byte-identical copy of index page 0 is its only partner; the edited copy is alone
  assert.ok(nd.clusters.clusterOf[first] >= 0);
  assert.is(nd.clusters.clusterOf[n], nd.clusters.clusterOf[first]);
  assert.is(nd.clusters.clusterOf[n + 1], -1);
  // listings of ten links are pages of links: two with nine links in common are near-duplicates, a third is not
  assert.ok(!thin.includes(n + 2) && set.tokens[n + 2] >= 50);
  assert.ok(nd.clusters.clusterOf[n + 2] >= 0);
  assert.is(nd.clusters.clusterOf[n + 3], nd.clusters.clusterOf[n + 2]);
  assert.is(nd.clusters.clusterOf[n + 4], -1);
  // no post page is in a cluster (each article is shown once)
  for (let d = 0; d < first; d++) assert.is(nd.clusters.clusterOf[d], -1);
  // whole-page mode clusters index pages of one site together through their template
  const page = nearDuplicates(sketchMany(docs));
  assert.ok(page.clusters.clusterOf[first + 1] >= 0 && page.clusters.clusterOf[first + 1] === page.clusters.clusterOf[first + 2]);
});

test('a page with too little content joins copies of its whole text (links and markup changed), and nothing else', () => {
  const all = articles(9, 40);
  const s = site(10, 'delta.example', all, Array.from({ length: 30 }, (_, i) => i), 30, 4, 2);
  const stubs = s.pages.slice(-4);
  const base = stubs[0];
  // a mirror's copy: links made absolute, attributes and spacing changed, every word the same
  const absolute = base.replace(/href="\//g, 'href="http://mirror.example/').replace(/<li>/g, '<li class="x">  ');
  const retitled = base.replace(/<title>[^<]*<\/title>/, '<title>another title</title>');
  const oneWord = base.replace(/<main><ul><li><a href="([^"]*)">/, '<main><ul><li><a href="$1">extra ');
  const docs = [...s.pages, absolute, retitled, oneWord];
  const n = s.pages.length, first = n - 4;
  const { set } = sketchWithTemplates(docs, docs.map(() => s.host), { content: 'main' });
  const thin = tooLittleContent(set);
  for (const d of [first, n, n + 1, n + 2]) assert.ok(thin.includes(d), `page ${d} has too little content`);
  assert.is.not(set.rawFp[n], set.rawFp[first], 'the copy is not byte-identical');
  assert.is(set.lexicalFp[n], set.lexicalFp[first]);
  for (const d of [n + 1, n + 2]) assert.is.not(set.lexicalFp[d], set.lexicalFp[first], `page ${d}: other text, other fingerprint`);
  const nd = nearDuplicates(set);
  const c = nd.clusters.clusterOf[first];
  assert.ok(c >= 0, 'the copy joins its page');
  assert.is(nd.clusters.clusterOf[n], c);
  const cluster = [...nd.clusters].find((x) => x.members.some((m) => m.doc === first))!;
  assert.equal(cluster.members.map((m) => [m.doc, m.kind]), [[first, 'representative'], [n, 'lexical']]);
  for (const d of [n + 1, n + 2]) assert.is(nd.clusters.clusterOf[d], -1, `page ${d} stays apart`);
  // with lexical equivalence off, the copy stays apart
  assert.is(nearDuplicates(set, { equivalence: 'identical' }).clusters.clusterOf[n], -1);
});

test('a page with too little content joins its copy in another build whose template text differs, by its title and content', () => {
  const all = articles(11, 40);
  const s = site(12, 'epsilon.example', all, Array.from({ length: 30 }, (_, i) => i), 30, 4, 2);
  // the next build on another host: every page the same but for one footer paragraph (a build date)
  const footer = /<footer><p>([^<]*)<\/p>/.exec(s.pages[0])![1];
  const next = s.pages.map((p) => p.replace(footer, 'built on the third of may two thousand and twenty six'));
  const n = s.pages.length, first = n - 4;
  // and a page of the next build whose title differs, and one whose content differs by one word
  const retitled = next[first].replace(/<title>[^<]*<\/title>/, '<title>another title</title>');
  const oneWord = next[first].replace(/<main><ul><li><a href="([^"]*)">/, '<main><ul><li><a href="$1">extra ');
  const docs = [...s.pages, ...next, retitled, oneWord];
  const hosts = [...s.pages.map(() => s.host), ...next.map(() => 'next.example'), 'next.example', 'next.example'];
  const { set } = sketchWithTemplates(docs, hosts, { content: 'main' });
  const thin = tooLittleContent(set);
  for (const d of [first, n + first, 2 * n, 2 * n + 1]) assert.ok(thin.includes(d), `page ${d} has too little content`);
  assert.is.not(set.lexicalFp[n + first], set.lexicalFp[first], 'the whole texts differ');
  assert.is(set.shingleFp[n + first], set.shingleFp[first]);
  assert.ok(set.shingleFp[first] !== 0n);
  for (const d of [2 * n, 2 * n + 1]) assert.is.not(set.shingleFp[d], set.shingleFp[first], `page ${d}: other title or content`);
  const nd = nearDuplicates(set);
  const cluster = [...nd.clusters].find((x) => x.members.some((m) => m.doc === first))!;
  assert.ok(cluster, 'the thin page is in a cluster');
  assert.equal(cluster.members.map((m) => [m.doc, m.kind]), [[first, 'representative'], [n + first, 'shingle']]);
  for (const d of [2 * n, 2 * n + 1]) assert.is(nd.clusters.clusterOf[d], -1, `page ${d} stays apart`);
  // set aside up to lexical equivalence only, the two builds' thin pages stay apart
  assert.is(nearDuplicates(set, { equivalence: 'lexical' }).clusters.clusterOf[n + first], -1);
});

test('the online index joins thin pages added later to their copies in another build, and only with shingle equivalence', () => {
  const all = articles(15, 40);
  const s = site(16, 'zeta.example', all, Array.from({ length: 30 }, (_, i) => i), 30, 4, 2);
  const footer = /<footer><p>([^<]*)<\/p>/.exec(s.pages[0])![1];
  const next = s.pages.map((p) => p.replace(footer, 'built on the third of may two thousand and twenty six'));
  const a = sketchWithTemplates(s.pages, s.pages.map(() => s.host), { content: 'main' }).set;
  const b = sketchWithTemplates(next, next.map(() => 'next.example'), { content: 'main' }).set;
  const first = s.pages.length - 4;
  const index = indexed(a);
  const added = index.insertMany(b);
  assert.ok(added.shingle >= 4, `${added.shingle} shingle-equivalent`);
  const lexicalOnly = indexed(a, undefined, { equivalence: 'lexical' });
  const later = lexicalOnly.insertMany(b);
  for (let k = 0; k < 4; k++) {
    assert.ok(a.tooLittleContent(first + k) && b.tooLittleContent(first + k), `index page ${k} is thin in both builds`);
    assert.ok(index.clusterOf(first + k) >= 0, `index page ${k} is in a cluster`);
    assert.is(index.clusterOf(added.first + first + k), index.clusterOf(first + k), `index page ${k} joins its copy`);
    const c = lexicalOnly.clusterOf(later.first + first + k);
    assert.ok(c === -1 || c !== lexicalOnly.clusterOf(first + k), `index page ${k}: no shingle equivalence, no join`);
  }
});

test('pages sketched whole with empty MOD_m rows are not thin and never equivalent by their empty rows', () => {
  const r = rng(14);
  const docs = Array.from({ length: 40 }, () => `<p>${randomWords(r, 20, 5000).join(' ')}</p>`);
  const set = sketchMany(docs, { kind: 'mod', m: 2 ** 32 });
  const empty = docs.map((_, i) => set.get(i).values.length === 0).filter(Boolean).length;
  assert.ok(empty > 30, `${empty} empty rows`);
  for (let i = 0; i < docs.length; i++) assert.ok(set.cardinality[i] > 0);
  assert.is(nearDuplicates(set).clusters.count, 0, 'different pages stay apart');
});

test('whole-page mode is bit-identical to sketches made without the content option', () => {
  const r = rng(13);
  const docs = Array.from({ length: 100 }, () => randomPage(r));
  for (const o of [{}, { kind: 'mod' as const, m: 4 }, { k: 16, w: 4 }, { superShingle: 2 }]) {
    const a = serializeSketchSet(sketchMany(docs, o));
    const b = serializeSketchSet(sketchMany(docs, { ...o, content: 'page' }));
    assert.equal(Buffer.from(a).toString('hex'), Buffer.from(b).toString('hex'));
    assert.is(new DataView(a.buffer).getUint16(4, true), 1, 'whole-page files stay format version 1');
  }
  // content 'main' that leaves nothing out feeds the same tokens to the same selection
  const untitled = docs.map((d) => d.replace(/<\/?title>/gi, ' '));
  const page = sketchMany(untitled, { k: 8 });
  const main = sketchMany(untitled, { k: 8, content: 'main', linkDensity: 1, minContent: 0 });
  assert.equal(hex(main.values), hex(page.values));
  assert.equal(hex(main.lexicalFp), hex(page.lexicalFp));
  assert.equal(hex(main.signature!), hex(page.signature!));
  assert.equal(Array.from(main.tokens), Array.from(page.tokens));
});

test('sketches of different modes are never compared; options are checked; content files round-trip', () => {
  const a = sketchMany(['<p>one two three four five six seven eight nine</p>'], { content: 'main', minContent: 0 });
  const b = sketchMany(['<p>one two three four five six seven eight nine</p>']);
  assert.match(code(() => resemblance(a.get(0), b.get(0))), /^E_PARAMS: .*content main ≠ page/);
  const bytes = serializeSketchSet(a);
  assert.is(new DataView(bytes.buffer).getUint16(4, true), 2);
  const back = deserializeSketchSet(bytes);
  assert.equal(back.params, a.params);
  assert.equal(Array.from(back.templateTokens!), Array.from(a.templateTokens!));
  assert.equal(hex(back.values), hex(a.values));
  assert.match(code(() => deserializeSketchSet(bytes, {})), /^E_PARAMS: .*content main ≠ page/);
  assert.match(code(() => deserializeSketchSet(serializeSketchSet(b), { content: 'main' })), /^E_PARAMS: .*content page ≠ main/);
  assert.match(code(() => sketchMany(['x'], { linkDensity: 0.3 })), /^E_OPTION: .*linkDensity/);
  assert.match(code(() => sketchMany(['x'], { content: 'main', unit: 'char' })), /^E_OPTION: .*unit/);
  assert.match(code(() => sketchMany(['x'], { content: 'main', linkDensity: 2 })), /^E_OPTION: .*linkDensity/);
  assert.match(code(() => sketchMany(['x'], { content: 'main', templates: { values: new BigUint64Array([2n, 1n]), offsets: Uint32Array.from([0, 2]), docTable: new Uint32Array(1) } })), /^E_OPTION: templates: table 0 is not ascending/);
  assert.match(code(() => sketchMany(['x'], { templates: { values: new BigUint64Array(0), offsets: new Uint32Array(1), docTable: new Uint32Array(1) } })), /^E_OPTION: .*templates/);
  assert.match(code(() => learnTemplates(['x'], ['h'], { trustAfter: 2 })), /^E_OPTION: .*trustAfter/);
});

test.run();
