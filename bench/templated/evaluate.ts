// Scores near-duplicate clusters of the templated crawl against the article-text truth.
// Truth: pages whose articles have word 5-shingle Jaccard ≥ 0.5 (truth.jsonl), closed
// transitively (clusters are); a clustered pair is a pair of pages in one cluster.
// Prints pairwise precision, recall and F1, and the share of clustered pairs that are
// different articles (or involve a page with no article at all).
// Run:
//   npx tsx bench/templated/evaluate.ts DIR [-- dups flags...]        runs `resemble dups DIR/crawl`
//   npx tsx bench/templated/evaluate.ts DIR --clusters FILE           scores a JSONL of {members:[{url}]}
//   npx tsx bench/templated/evaluate.ts DIR --peer datasketch         MinHash-128 + LSH (needs datasketch on PYTHONPATH)
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readPages } from './truth.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const dir = args[0];
if (!dir) { console.error('usage: evaluate.ts DIR [--clusters FILE | --peer datasketch | -- dups flags]'); process.exit(2); }
const flag = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const dash = args.indexOf('--');
const dupsFlags = dash >= 0 ? args.slice(dash + 1) : [];

const pages = readPages(dir);
const index = new Map(pages.map((p, i) => [p.url, i]));

// Truth components (union-find over pairs with Jaccard ≥ 0.5).
const parent = pages.map((_, i) => i);
const find = (x: number): number => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
for (const line of readFileSync(join(dir, 'truth.jsonl'), 'utf8').split('\n')) {
  if (!line) continue;
  const t = JSON.parse(line) as { a: string; b: string; jaccard: number };
  if (t.jaccard >= 0.5) parent[find(index.get(t.a)!)] = find(index.get(t.b)!);
}
const compSize = new Map<number, number>();
for (let i = 0; i < pages.length; i++) compSize.set(find(i), (compSize.get(find(i)) ?? 0) + 1);
let truthPairs = 0;
for (const s of compSize.values()) truthPairs += (s * (s - 1)) / 2;

// The clusters to score.
let text: string;
let label: string;
const started = Date.now();
if (flag('--clusters')) { text = readFileSync(flag('--clusters')!, 'utf8'); label = flag('--clusters')!; }
else if (flag('--peer') === 'datasketch') {
  const r = spawnSync('python3', [join(here, 'datasketch_peer.py'), join(dir, 'crawl.jsonl')], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) { console.log(`datasketch: skipped (${(r.stderr || '').trim().split('\n').pop()})`); process.exit(0); }
  text = r.stdout; label = 'datasketch MinHash-128 + LSH (threshold 0.5, word 8-shingles of the page text)';
} else {
  const bin = join(here, '..', '..', 'bin', 'resemble.js');
  text = execFileSync(process.execPath, [bin, 'dups', join(dir, 'crawl'), '--quiet', ...dupsFlags], { encoding: 'utf8', maxBuffer: 1 << 28 });
  label = `resemble dups ${dupsFlags.join(' ')}`.trim();
}
const seconds = (Date.now() - started) / 1000;

let clustered = 0, correct = 0, different = 0, clusters = 0;
for (const line of text.split('\n')) {
  if (!line.trim()) continue;
  const rec = JSON.parse(line) as { members: Array<{ url: string }> };
  const ids = rec.members.map((m) => {
    const i = index.get(m.url);
    if (i === undefined) throw new Error(`unknown url in clusters: ${m.url}`);
    return i;
  });
  clusters++;
  for (let x = 0; x < ids.length; x++) {
    for (let y = x + 1; y < ids.length; y++) {
      clustered++;
      const a = pages[ids[x]], b = pages[ids[y]];
      if (find(ids[x]) === find(ids[y])) correct++;
      if (a.article === null || b.article === null || a.article !== b.article) different++;
    }
  }
}
const precision = clustered ? correct / clustered : 0;
const recall = truthPairs ? correct / truthPairs : 0;
const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
console.log(`${label}: ${clusters} clusters, ${clustered} clustered pairs, ${correct} true of ${truthPairs} truth pairs; `
  + `precision ${precision.toFixed(4)} recall ${recall.toFixed(4)} F1 ${f1.toFixed(4)}; `
  + `different articles ${different} (${clustered ? ((100 * different) / clustered).toFixed(2) : '0.00'}% of clustered pairs); ${seconds.toFixed(1)} s`);
