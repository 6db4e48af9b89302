// The realistic slice (test/fixtures/realistic-slice): its truth files must agree with its pages.
// Jaccard and containment are recomputed here with the reference shingles (BigInt Rabin over the
// reference tokenizer), by brute force over every pair, independently of the string-interned
// shingles and the prefix-filtered search that wrote the truth; the layout truth is checked against
// the files, the reader and itself.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFolder } from '../../src/io/folder.js';
import { shingleValuesRef } from '../../src/reference/shingles.js';

const DIR = join('test', 'fixtures', 'realistic-slice');
const truthFile = (name: string) => readFileSync(join(DIR, 'truth', name), 'utf8');
const { pages } = JSON.parse(truthFile('pages.json')) as { pages: Array<{ url: string; file: string; work: string; copy: string; page: string; release: string; charset: string; bytes: number; sha256: string; correspondences: Record<string, string> }> };
const copies = JSON.parse(truthFile('copies.json'));
const pairs = truthFile('pairs.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l)) as Array<{ a: number; b: number; urlA: string; urlB: string; j8: number; aInB: number; bInA: number; j5: number }>;
const clusters = JSON.parse(truthFile('clusters.json'));
const bytesOf = pages.map((p) => new Uint8Array(readFileSync(join(DIR, 'crawl', p.file))));
const textOf = pages.map((p, i) => new TextDecoder(p.charset).decode(bytesOf[i]));

function exact(a: bigint[], b: bigint[]) {
  const A = new Set(a), B = new Set(b);
  let inter = 0;
  for (const x of A) if (B.has(x)) inter++;
  return { j: inter / (A.size + B.size - inter), aInB: inter / A.size, bInA: inter / B.size };
}

test('the slice is a wget mirror the folder reader reads as the URLs of pages.json, with no host root page', async () => {
  const urls: string[] = [];
  for await (const d of readFolder(join(DIR, 'crawl'))) urls.push(d.url);
  assert.equal(urls, pages.map((p) => p.url));
  for (const p of pages) assert.is.not(new URL(p.url).pathname, '/', p.url);
  assert.ok(new Set(pages.map((p) => new URL(p.url).host)).size >= 6);
});

test('bytes, digests and declared charsets match the files; legacy charsets decode cleanly', () => {
  pages.forEach((p, i) => {
    assert.is(bytesOf[i].length, p.bytes, p.file);
    assert.is(createHash('sha256').update(bytesOf[i]).digest('hex'), p.sha256, p.file);
    assert.not.ok(textOf[i].includes('\ufffd'), p.file);
    if (p.charset !== 'utf-8') assert.match(textOf[i], /<meta[^>]*charset=EUC-JP/i, p.file);
  });
  assert.ok(pages.some((p) => p.charset === 'euc-jp'));
});

test('pairs.jsonl lists exactly the pairs with reference word-8 Jaccard ≥ 0.3, with their measures', () => {
  const s8 = textOf.map((t) => shingleValuesRef(t, { w: 8 }));
  const s5 = textOf.map((t) => shingleValuesRef(t, { w: 5 }));
  const listed = new Map(pairs.map((p) => [`${p.a} ${p.b}`, p]));
  let found = 0;
  for (let a = 0; a < pages.length; a++) {
    for (let b = a + 1; b < pages.length; b++) {
      const m = exact(s8[a], s8[b]);
      const p = listed.get(`${a} ${b}`);
      if (m.j < 0.3) {
        assert.is(p, undefined, `${pages[a].url} ${pages[b].url} listed with reference Jaccard ${m.j}`);
        continue;
      }
      found++;
      assert.ok(p, `${pages[a].url} ${pages[b].url}: reference Jaccard ${m.j} not listed`);
      assert.is(p!.urlA, pages[a].url);
      assert.is(p!.urlB, pages[b].url);
      assert.ok(Math.abs(p!.j8 - m.j) < 1e-6, `j8 ${p!.j8} vs ${m.j}`);
      assert.ok(Math.abs(p!.aInB - m.aInB) < 1e-6 && Math.abs(p!.bInA - m.bInA) < 1e-6, `containment of ${p!.urlA} ${p!.urlB}`);
      assert.ok(Math.abs(p!.j5 - exact(s5[a], s5[b]).j) < 1e-6, `j5 of ${p!.urlA} ${p!.urlB}`);
    }
  }
  assert.is(found, pairs.length);
  // The slice holds what it is for: exact copies, changed pages of lagging copies, and natural near-duplicates.
  assert.ok(pairs.some((p) => p.j8 === 1) && pairs.some((p) => p.j8 < 0.9 && p.j8 >= 0.5) && pairs.some((p) => p.j8 < 0.5));
});

test('clusters.json holds the connected components of Jaccard ≥ 0.5', () => {
  const parent = pages.map((_, i) => i);
  const find = (x: number): number => (parent[x] === x ? x : (parent[x] = find(parent[x])));
  for (const p of pairs) if (p.j8 >= 0.5) parent[find(p.a)] = find(p.b);
  const groups = new Map<number, string[]>();
  pages.forEach((p, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), p.url]));
  const expected = [...groups.values()].filter((g) => g.length > 1).map((g) => g.sort().join('\n')).sort();
  assert.equal(clusters.clusters.map((g: string[]) => [...g].sort().join('\n')).sort(), expected);
});

test('correspondences join the same page of the same work in every other copy, both ways', () => {
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  let n = 0;
  for (const p of pages) {
    for (const [copy, url] of Object.entries(p.correspondences)) {
      const q = byUrl.get(url);
      assert.ok(q, url);
      assert.is(q!.copy, copy);
      assert.is(q!.work, p.work);
      assert.is(q!.page, p.page);
      assert.is(q!.correspondences[p.copy], p.url);
      n++;
    }
    const others = pages.filter((q) => q !== p && q.work === p.work && q.page === p.page).map((q) => q.copy).sort();
    assert.equal(Object.keys(p.correspondences).sort(), others);
  }
  assert.ok(n > 0);
});

test('copy pairs: relations follow from the pages and the releases; exact copies have identical shingle sets', () => {
  const copyOf = new Map<string, any>(copies.copies.map((c: any) => [c.id, c]));
  const j8 = new Map(pairs.map((p) => [`${p.urlA} ${p.urlB}`, p.j8]));
  const jaccard = (u: string, v: string) => j8.get(`${u} ${v}`) ?? j8.get(`${v} ${u}`) ?? 0;
  const relations = new Set<string>();
  for (const cp of copies.copyPairs) {
    relations.add(cp.relation);
    const a = copyOf.get(cp.a), b = copyOf.get(cp.b);
    const pa = pages.filter((p) => p.copy === cp.a), pb = pages.filter((p) => p.copy === cp.b);
    const common = pa.filter((p) => pb.some((q) => q.page === p.page));
    assert.is(cp.common, common.length);
    assert.is(cp.prefixShifted, a.prefix !== b.prefix);
    assert.is(cp.mirror, ['exact', 'partial', 'lagging'].includes(cp.relation));
    if (cp.relation === 'exact' || cp.relation === 'partial') {
      assert.is(a.source, b.source);
      for (const p of common) assert.is(jaccard(p.url, p.correspondences[cp.b]), 1, p.url);
    }
    if (cp.relation === 'exact') assert.ok(common.length === pa.length && common.length === pb.length);
    if (cp.relation === 'partial') assert.ok(common.length < Math.max(pa.length, pb.length));
    if (cp.relation === 'lagging') {
      assert.is.not(a.release, b.release);
      assert.is(a.line, b.line);
      assert.ok(common.some((p) => jaccard(p.url, p.correspondences[cp.b]) < 1), `${cp.a} ${cp.b} has no changed page`);
    }
  }
  for (const r of ['exact', 'partial', 'lagging', 'single-page copy']) assert.ok(relations.has(r), r);
  assert.ok(copies.copyPairs.some((cp: any) => cp.relation === 'exact' && cp.prefixShifted));
  for (const hp of copies.hostPairs) {
    const between = copies.copyPairs.filter((cp: any) => [copyOf.get(cp.a).host, copyOf.get(cp.b).host].sort().join(' ') === [hp.a, hp.b].join(' '));
    assert.is(hp.mirror, between.some((cp: any) => cp.mirror), `${hp.a} ${hp.b}`);
  }
});

test.run();
