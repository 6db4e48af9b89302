// Pairwise scoring of clusters against the templated crawl's article-text truth (truth.jsonl):
// truth pairs are pages whose article word 5-shingle Jaccard is ≥ 0.5, closed transitively.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPages, type PageRow } from './truth.js';

/** The crawl's pages and truth components. */
export interface Truth {
  pages: PageRow[];
  index: Map<string, number>;
  component: Int32Array;
  truthPairs: number;
}

/** Reads DIR/pages.jsonl and DIR/truth.jsonl. */
export function loadTruth(dir: string): Truth {
  const pages = readPages(dir);
  const index = new Map(pages.map((p, i) => [p.url, i]));
  const parent = pages.map((_, i) => i);
  const find = (x: number): number => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
  for (const line of readFileSync(join(dir, 'truth.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    const t = JSON.parse(line) as { a: string; b: string; jaccard: number };
    if (t.jaccard >= 0.5) parent[find(index.get(t.a)!)] = find(index.get(t.b)!);
  }
  const component = Int32Array.from(pages, (_, i) => find(i));
  const size = new Map<number, number>();
  for (const c of component) size.set(c, (size.get(c) ?? 0) + 1);
  let truthPairs = 0;
  for (const s of size.values()) truthPairs += (s * (s - 1)) / 2;
  return { pages, index, component, truthPairs };
}

/** Pairwise figures of a clustering. */
export interface Score { clusters: number; clustered: number; correct: number; different: number; precision: number; recall: number; f1: number }

/** Scores clusters given as lists of page indices. */
export function score(t: Truth, clusters: number[][]): Score {
  let clustered = 0, correct = 0, different = 0;
  for (const ids of clusters) {
    for (let x = 0; x < ids.length; x++) {
      for (let y = x + 1; y < ids.length; y++) {
        clustered++;
        const a = t.pages[ids[x]], b = t.pages[ids[y]];
        if (t.component[ids[x]] === t.component[ids[y]]) correct++;
        if (a.article === null || b.article === null || a.article !== b.article) different++;
      }
    }
  }
  const precision = clustered ? correct / clustered : 0;
  const recall = t.truthPairs ? correct / t.truthPairs : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { clusters: clusters.length, clustered, correct, different, precision, recall, f1 };
}

/** Clusters from JSON lines of cluster records ({members: [{url}]}). */
export function clustersOfJsonl(t: Truth, text: string): number[][] {
  const out: number[][] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const rec = JSON.parse(line) as { members?: Array<{ url: string }> };
    if (!rec.members) continue;
    out.push(rec.members.map((m) => {
      const i = t.index.get(m.url);
      if (i === undefined) throw new Error(`unknown url in clusters: ${m.url}`);
      return i;
    }));
  }
  return out;
}

/** One line: precision, recall, F1 and the share of clustered pairs that are different articles. */
export function scoreLine(label: string, t: Truth, s: Score): string {
  return `${label}: ${s.clusters} clusters, ${s.clustered} clustered pairs, ${s.correct} true of ${t.truthPairs} truth pairs; `
    + `precision ${s.precision.toFixed(4)} recall ${s.recall.toFixed(4)} F1 ${s.f1.toFixed(4)}; `
    + `different articles ${s.different} (${s.clustered ? ((100 * s.different) / s.clustered).toFixed(2) : '0.00'}% of clustered pairs)`;
}
