/**
 * Writes the truth beside a crawl: pages.json (what every page is, from how the crawl was built),
 * copies.json (copies, copy pairs and host pairs with their relations), pairs.jsonl (every pair of
 * pages with exact word-8-shingle Jaccard ≥ 0.3, with containment both ways and word-5 Jaccard)
 * and clusters.json (connected components of Jaccard ≥ 0.5, and groups of identical text).
 * The format is described in eval/manuals/README.md.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { copyPairs, decode, hostPairs, type Page } from './layout.js';
import type { CopySpec, Work } from './plan.js';
import { components, ShingleIndex, similarPairs, type ShingleSets } from './similarity.js';

/** The lowest Jaccard listed in pairs.jsonl, and the one truth clusters are made at. */
export const LIST_THRESHOLD = 0.3;
export const CLUSTER_THRESHOLD = 0.5;

const sha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const round = (x: number) => Math.round(x * 1e6) / 1e6;

/** One line of pairs.jsonl: pages by index into pages.json and by URL. */
export interface PairRecord {
  a: number;
  b: number;
  urlA: string;
  urlB: string;
  j8: number;
  aInB: number;
  bInA: number;
  j5: number;
}

/** Takes the plan, the pages and a folder; writes the truth files there and returns a summary. */
export async function writeTruth(dir: string, works: Work[], copies: CopySpec[], pages: Page[], extra: Record<string, unknown>, log: (s: string) => void) {
  mkdirSync(dir, { recursive: true });
  // Distinct texts: byte-identical and re-encoded copies share one shingle computation.
  const texts = pages.map((p) => decode(p));
  const textHash = texts.map((t) => sha(t));
  const docOf = new Map<string, number>();
  const firstPage: number[] = [];
  const doc = textHash.map((h, i) => {
    let d = docOf.get(h);
    if (d === undefined) { docOf.set(h, (d = firstPage.length)); firstPage.push(i); }
    return d;
  });
  log(`truth: ${pages.length} pages, ${firstPage.length} distinct texts; shingling with the reference tokenizer`);
  const index = new ShingleIndex();
  const sets: ShingleSets[] = [];
  const started = Date.now();
  for (const [k, i] of firstPage.entries()) {
    sets.push(index.sets(texts[i]));
    if (k % 500 === 499) log(`  ${k + 1}/${firstPage.length} texts, ${index.distinct8} distinct 8-shingles, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  log(`truth: ${index.distinct8} distinct 8-shingles; pairs with Jaccard ≥ ${LIST_THRESHOLD}`);
  const docPairs = similarPairs(sets, LIST_THRESHOLD);

  // Correspondences: the same page of the same work in every other copy.
  const byWorkPage = new Map<string, Map<string, string>>();
  for (const p of pages) {
    const key = `${p.work}\n${p.page}`;
    let m = byWorkPage.get(key);
    if (!m) byWorkPage.set(key, (m = new Map()));
    m.set(p.copy, p.url);
  }
  const pageRecords = pages.map((p, i) => {
    const same: Record<string, string> = {};
    for (const [copy, url] of byWorkPage.get(`${p.work}\n${p.page}`)!) if (copy !== p.copy) same[copy] = url;
    return {
      url: p.url, file: p.file, work: p.work, release: p.release, source: p.source, copy: p.copy, page: p.page,
      charset: p.charset, bytes: p.bytes.length, sha256: sha(p.bytes), text: textHash[i], tokens: sets[doc[i]].tokens,
      shingles8: sets[doc[i]].w8.length, shingles5: sets[doc[i]].w5.length, correspondences: same,
    };
  });
  writeFileSync(join(dir, 'pages.json'), JSON.stringify({ pages: pageRecords }, null, 0).replace(/\},\{"url"/g, '},\n{"url"') + '\n');

  const cp = copyPairs(works, copies, pages);
  const hp = hostPairs(copies, cp);
  const pageCount = new Map<string, number>();
  for (const p of pages) pageCount.set(p.copy, (pageCount.get(p.copy) ?? 0) + 1);
  const workById = new Map(works.map((w) => [w.id, w]));
  const copyRecords = copies.map((c) => {
    const rel = workById.get(c.work)!.releases[c.source];
    const pairs = cp.filter((p) => p.a === c.id || p.b === c.id);
    return {
      id: c.id, work: c.work, title: workById.get(c.work)!.title, source: c.source, release: rel.release, line: rel.line,
      host: c.host, prefix: c.prefix, root: `http://${c.host}${c.prefix}`, pages: pageCount.get(c.id) ?? 0, charset: c.charset ?? 'UTF-8',
      kind: 'single' in c.select ? 'single-page copy' : pairs.some((p) => p.mirror) ? 'copy' : 'unrelated', note: c.note,
    };
  });
  writeFileSync(join(dir, 'copies.json'), JSON.stringify({ works, copies: copyRecords, copyPairs: cp, hostPairs: hp }, null, 1) + '\n');

  // Page pairs: every pair of pages of two similar texts, and every pair of pages of one text.
  const pagesOf: number[][] = firstPage.map(() => []);
  doc.forEach((d, i) => pagesOf[d].push(i));
  const out = createWriteStream(join(dir, 'pairs.jsonl'));
  let lines = 0;
  const links: Array<[number, number]> = [];
  const write = async (r: PairRecord) => {
    lines++;
    if (!out.write(JSON.stringify(r) + '\n')) await once(out, 'drain');
  };
  const records: PairRecord[] = [];
  for (const ps of pagesOf) {
    for (let x = 0; x < ps.length; x++) for (let y = x + 1; y < ps.length; y++) {
      records.push({ a: ps[x], b: ps[y], urlA: pages[ps[x]].url, urlB: pages[ps[y]].url, j8: 1, aInB: 1, bInA: 1, j5: 1 });
    }
    for (let x = 1; x < ps.length; x++) links.push([ps[0], ps[x]]);
  }
  for (const dp of docPairs) {
    if (dp.j8 >= CLUSTER_THRESHOLD) links.push([firstPage[dp.a], firstPage[dp.b]]);
    for (const x of pagesOf[dp.a]) for (const y of pagesOf[dp.b]) {
      const [a, b, aInB, bInA] = x < y ? [x, y, dp.aInB, dp.bInA] : [y, x, dp.bInA, dp.aInB];
      records.push({ a, b, urlA: pages[a].url, urlB: pages[b].url, j8: round(dp.j8), aInB: round(aInB), bInA: round(bInA), j5: round(dp.j5) });
    }
  }
  records.sort((p, q) => p.a - q.a || p.b - q.b);
  for (const r of records) await write(r);
  out.end();
  await once(out, 'finish');

  const clusters = components(pages.length, links);
  const identical = pagesOf.filter((g) => g.length > 1);
  const bytesIdentical = [...pages.reduce((m, p, i) => {
    const h = sha(p.bytes);
    const g = m.get(h) ?? [];
    g.push(i);
    return m.set(h, g);
  }, new Map<string, number[]>()).values()].filter((g) => g.length > 1);
  writeFileSync(join(dir, 'clusters.json'), JSON.stringify({
    threshold: CLUSTER_THRESHOLD,
    clusters: clusters.map((g) => g.map((i) => pages[i].url)),
    identicalText: identical.map((g) => g.map((i) => pages[i].url)),
    identicalBytes: bytesIdentical.map((g) => g.map((i) => pages[i].url)),
  }, null, 0).replace(/\],\[/g, '],\n[') + '\n');

  const summary = {
    ...extra,
    pages: pages.length,
    bytes: pages.reduce((s, p) => s + p.bytes.length, 0),
    hosts: new Set(pages.map((p) => p.url.split('/')[2])).size,
    copies: copies.length,
    distinctTexts: firstPage.length,
    distinctShingles8: index.distinct8,
    pairs: lines,
    pairsAtLeast05: records.filter((r) => r.j8 >= CLUSTER_THRESHOLD).length,
    clusters: clusters.length,
    pagesInClusters: clusters.reduce((s, g) => s + g.length, 0),
    identicalTextGroups: identical.length,
    identicalBytesGroups: bytesIdentical.length,
    copyPairs: cp.length,
    mirrorCopyPairs: cp.filter((p) => p.mirror).length,
    hostPairs: hp.length,
    mirrorHostPairs: hp.filter((p) => p.mirror).length,
  };
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 1) + '\n');
  return summary;
}
