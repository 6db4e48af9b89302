// The Crawlee duplicate guard on a templated crawl, page by page in the crawl's order, as a
// crawler would call it: content mode (the default) beside whole pages (`content: 'page'`),
// scored against the article-text truth (truth.jsonl, Jaccard ≥ 0.5 closed transitively).
// A page is a duplicate to catch when an earlier page of the crawl is in its truth component; a
// call is right when the page it names is in the same component.
// Run: npx tsx eval/templated/guard.ts DIR [DIR2 …]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { init } from '../../src/index.js';
import { DuplicateGuard } from '../../src/crawlee/guard.js';
import { loadTruth } from './score.js';

const dirs = process.argv.slice(2);
if (dirs.length === 0) { console.error('usage: guard.ts DIR [DIR2 …]  (templated crawls: DIR/crawl.jsonl, pages.jsonl, truth.jsonl)'); process.exit(2); }
await init();

for (const dir of dirs) {
  const truth = loadTruth(dir);
  const pages = readFileSync(join(dir, 'crawl.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { url: string; html: string });
  for (const content of ['main', 'page'] as const) {
    const guard = new DuplicateGuard({ content });
    const seen = new Set<number>();
    let toCatch = 0, caught = 0, calls = 0, right = 0;
    const t0 = performance.now();
    for (const p of pages) {
      const i = truth.index.get(p.url);
      const match = guard.isDuplicate(p.url, p.html);
      if (i === undefined) continue;
      const c = truth.component[i];
      const earlier = seen.has(c);
      seen.add(c);
      if (earlier) toCatch++;
      if (match === null) continue;
      calls++;
      const j = truth.index.get(match);
      if (j !== undefined && truth.component[j] === c) { right++; if (earlier) caught++; }
    }
    const ms = performance.now() - t0;
    const precision = calls ? right / calls : 1, recall = toCatch ? caught / toCatch : 1;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    console.log(`${dir}: guard content '${content}': ${pages.length} pages, ${calls} called duplicates, ${right} right; ${caught} of ${toCatch} duplicates caught; precision ${precision.toFixed(4)} recall ${recall.toFixed(4)} F1 ${f1.toFixed(4)}; ${guard.provisional} answered provisionally; ${(pages.length / (ms / 1000)).toFixed(0)} pages/s`);
  }
}
