// The measurement behind content mode's design: candidate ways of leaving the site template
// out, each prototyped in TypeScript over the existing batch kernels and scored on the
// templated crawl with the same clustering (pairs, threshold 0.5). Slow on purpose (the block
// model comes from the reference twin in src/reference/template.ts); it is not the fast path.
// Run: npx tsx eval/templated/methods.ts DIR
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nearDuplicates } from '../../src/cluster/near-duplicates.js';
import { init, sketchMany } from '../../src/index.js';
import { shingleValues } from '../../src/advanced.js';
import { blocksRef, type BlockRef } from '../../src/reference/template.js';
import { SketchSet, kmvCardinality } from '../../src/sketch/sketch-set.js';
import { resolveSketchOptions } from '../../src/sketch/options.js';
import { loadTruth, score, scoreLine, type Truth } from './score.js';

const dir = process.argv[2];
if (!dir) { console.error('usage: methods.ts DIR'); process.exit(2); }
await init();
const truth = loadTruth(dir);
const html = new Map<string, string>();
for (const line of readFileSync(join(dir, 'crawl.jsonl'), 'utf8').split('\n')) {
  if (!line) continue;
  const r = JSON.parse(line) as { url: string; html: string };
  html.set(r.url, r.html);
}
const pages = truth.pages.map((p) => html.get(p.url)!);
const hosts = truth.pages.map((p) => new URL(p.url).host);
const MIN_WORDS = 50;

/** Clusters of docs given per-document content texts (null: too little content, left out). */
function clusterTexts(t: Truth, texts: (string | null)[], markup: 'html' | 'text' = 'text'): number[][] {
  const keep = texts.map((x, i) => (x === null ? -1 : i)).filter((i) => i >= 0);
  const set = sketchMany(keep.map((i) => texts[i]!), { markup });
  const nd = nearDuplicates(set);
  const out: number[][] = [];
  for (const c of nd.clusters) out.push(c.members.map((m) => keep[m.doc]));
  return out;
}

/** Per host, the keys found on at least max(3, share × pages) of its distinct pages. */
function frequent<K>(keysOf: (i: number) => Iterable<K>, share: number, use: (i: number) => boolean = () => true): Map<string, Set<K>> {
  const byHost = new Map<string, number[]>();
  hosts.forEach((h, i) => { const l = byHost.get(h); if (l) l.push(i); else byHost.set(h, [i]); });
  const out = new Map<string, Set<K>>();
  for (const [h, list] of byHost) {
    const seen = new Set<string>();
    const df = new Map<K, number>();
    let n = 0;
    for (const i of list) {
      if (!use(i) || seen.has(pages[i])) continue; // identical pages count once
      seen.add(pages[i]); n++;
      for (const k of new Set(keysOf(i))) df.set(k, (df.get(k) ?? 0) + 1);
    }
    const min = Math.max(3, Math.ceil(share * n));
    out.set(h, new Set([...df].filter(([, c]) => c >= min).map(([k]) => k)));
  }
  return out;
}

const report = (label: string, clusters: number[][]) => console.log(scoreLine(label, truth, score(truth, clusters)));

// 1. Whole page (today).
report('whole page', clusterTexts(truth, pages, 'html'));

// 2. Frequent shingles per host left out of each page's shingle set, MIN_128 of the rest.
{
  const values = pages.map((p) => shingleValues(p));
  for (const share of [0.1, 0.3]) {
    const tpl = frequent((i) => values[i], share);
    const p = resolveSketchOptions({});
    const rows = values.map((v, i) => [...new Set(v)].filter((x) => !tpl.get(hosts[i])!.has(x)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const keep = rows.map((r, i) => (r.length >= MIN_WORDS ? i : -1)).filter((i) => i >= 0);
    const offsets = new Uint32Array(keep.length + 1);
    keep.forEach((d, k) => { offsets[k + 1] = offsets[k] + Math.min(128, rows[d].length); });
    const vals = new BigUint64Array(offsets[keep.length]);
    keep.forEach((d, k) => vals.set(rows[d].slice(0, 128), offsets[k]));
    const n = keep.length;
    const fp = (r: bigint[]) => r.reduce((h, x) => (h * 1099511628211n + x) & 0xffffffffffffffffn, 1469598103934665603n);
    const set = new SketchSet(p, {
      values: vals, offsets, cardinality: Float64Array.from(keep, (d) => kmvCardinality(Math.min(128, rows[d].length), 128, rows[d][Math.min(128, rows[d].length) - 1])),
      tokens: new Uint32Array(n), modulusLog2: new Uint8Array(n), rawFp: BigUint64Array.from(keep, (d) => fp(values[d] as unknown as bigint[]) || 1n),
      lexicalFp: BigUint64Array.from(keep, (d) => fp(rows[d])), shingleFp: BigUint64Array.from(keep, (d) => fp(rows[d].slice(0, 128))),
    });
    const clusters = [...nearDuplicates(set).clusters].map((c) => c.members.map((m) => keep[m.doc]));
    report(`frequent shingles left out (share ${share}, ≥ ${MIN_WORDS} left)`, clusters);
  }
}

// 3. Blocks: frequent blocks per host, link-heavy blocks, or both.
{
  const blocks = pages.map((p) => blocksRef(p));
  const key = (b: BlockRef) => b.tokens.join(' ');
  const content = (keepBlock: (b: BlockRef, i: number) => boolean) => blocks.map((bs, i) => {
    const t = bs.filter((b) => keepBlock(b, i)).flatMap((b) => b.tokens);
    return t.length >= MIN_WORDS ? t.join(' ') : null;
  });
  for (const share of [0.1, 0.3, 0.5]) {
    const tpl = frequent((i) => blocks[i].map(key), share);
    report(`frequent blocks left out (share ${share})`, clusterTexts(truth, content((b, i) => !tpl.get(hosts[i])!.has(key(b)))));
  }
  for (const limit of [0.33, 0.5]) {
    report(`link-heavy blocks left out (> ${limit})`, clusterTexts(truth, content((b) => !(b.links > limit * b.tokens.length))));
  }
  for (const share of [0.1, 0.3, 0.5]) {
    const tpl = frequent((i) => blocks[i].map(key), share);
    for (const limit of [0.33, 0.5]) {
      report(`both (share ${share}, links > ${limit})`, clusterTexts(truth, content((b, i) => !(b.links > limit * b.tokens.length) && !tpl.get(hosts[i])!.has(key(b)))));
    }
  }
  // How many pages a host needs before its template is trusted: learn from the first k pages only.
  for (const k of [4, 8, 16, 32]) {
    const firstK = new Map<string, number>();
    const sampled = truth.pages.map((_, i) => { const c = firstK.get(hosts[i]) ?? 0; firstK.set(hosts[i], c + 1); return c < k; });
    const tpl = frequent((i) => blocks[i].map(key), 0.5, (i) => sampled[i]);
    report(`both, learnt from each host's first ${k} pages (share 0.5 of them, links > 0.33)`, clusterTexts(truth, content((b, i) => !(b.links > 0.33 * b.tokens.length) && !tpl.get(hosts[i])!.has(key(b)))));
  }
}
