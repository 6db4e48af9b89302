// Truth for the templated crawl, from the article text alone (pages.jsonl, written by news-sites.ts or mixed-templates.ts):
// every pair of pages whose articles share a word 5-shingle, with the exact Jaccard of their
// word 5-shingle sets. The tokenizer is deliberately plain and separate from the library's:
// lower case, words are maximal runs of Unicode letters and digits.
// Run: npx tsx eval/templated/truth.ts DIR   (reads DIR/pages.jsonl, writes DIR/truth.jsonl)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Word 5-shingles of a text as strings (a text under 5 words is one shingle of all its words). */
export function shingles5(text: string): Set<string> {
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0);
  const out = new Set<string>();
  if (words.length < 5) { if (words.length) out.add(words.join(' ')); return out; }
  for (let i = 0; i + 5 <= words.length; i++) out.add(words.slice(i, i + 5).join(' '));
  return out;
}

/** Exact Jaccard of two sets. */
export function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 0 : inter / union;
}

/** One row of pages.jsonl. */
export interface PageRow { url: string; host: string; role: string; article: number | null; variant: string | null; text: string | null }

/** Reads DIR/pages.jsonl. */
export function readPages(dir: string): PageRow[] {
  return readFileSync(join(dir, 'pages.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PageRow);
}

/** The pairs of pages with any shared article shingle: [i, j, jaccard], i < j. */
export function truthPairs(pages: PageRow[]): Array<[number, number, number]> {
  const sets = pages.map((p) => (p.text === null ? new Set<string>() : shingles5(p.text)));
  const postings = new Map<string, number[]>();
  sets.forEach((s, i) => { for (const x of s) { const l = postings.get(x); if (l) l.push(i); else postings.set(x, [i]); } });
  const seen = new Set<number>();
  const out: Array<[number, number, number]> = [];
  for (const list of postings.values()) {
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const key = list[x] * pages.length + list[y];
        if (seen.has(key)) continue;
        seen.add(key);
        out.push([list[x], list[y], jaccard(sets[list[x]], sets[list[y]])]);
      }
    }
  }
  return out.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) { console.error('usage: truth.ts DIR'); process.exit(2); }
  const pages = readPages(dir);
  const pairs = truthPairs(pages);
  writeFileSync(join(dir, 'truth.jsonl'), pairs.map(([i, j, r]) => JSON.stringify({ a: pages[i].url, b: pages[j].url, jaccard: Number(r.toFixed(4)) })).join('\n') + '\n');
  const over = pairs.filter((p) => p[2] >= 0.5).length;
  const diff = pairs.filter((p) => p[2] >= 0.5 && pages[p[0]].article !== pages[p[1]].article).length;
  console.log(`${pages.length} pages, ${pairs.length} pairs sharing an article shingle, ${over} with Jaccard ≥ 0.5 (${diff} of them different articles)`);
}
