// Replicated collections at scale: a generated crawl of about 100,000 pages (50 collections × 10
// copies of 180 pages, one partial mirror each, lagging copies, 8,000 noise pages), each stage timed
// with tinybench after its result is checked, with process.memoryUsage() around each stage.
// Run: node --import tsx bench/collections.bench.ts [--quick] [--clock wall|cpu|auto]
// (auto: CPU time when the machine is busier than its cores, where wall time mostly measures waiting).
import { Bench } from 'tinybench';
import { machine } from '../src/bench/machine.js';
import { chooseClock, clockNow } from '../src/bench/measure.js';
import { avoidList } from '../src/collections/avoid.js';
import { collectionsOfGraph, type ReplicatedCollections } from '../src/collections/find.js';
import { HOLE } from '../src/collections/matrix.js';
import { plantedCrawl } from '../src/collections/planted.js';
import { similarPages, type SimilarPages } from '../src/collections/similarity.js';
import { init } from '../src/index.js';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean', default: false }, clock: { type: 'string' } } });
const quick = args.quick;
const options = quick
  ? { collections: 10, copies: 5, pages: 60, partialMirrors: 1, laggingCopies: 2, editedPages: 3, noisePages: 1000, seed: 1 }
  : { collections: 50, copies: 10, pages: 180, partialMirrors: 1, laggingCopies: 2, editedPages: 3, noisePages: 8000, seed: 1 };
// Two-line chunks with T = 4 of the 6 chunks of a 12-line page: a lagging page with one line edited stays similar.
const SIMILARITY = { kind: 'chunks', unit: 'lines', lines: 2, threshold: 4, markup: 'text' } as const;

const m0 = machine();
const clock = chooseClock(args.clock, m0);
console.log(`clock: ${clock} time (load ${m0.load[0].toFixed(1)} on ${m0.cores} cores)`);
await init();
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const memory = () => { const m = process.memoryUsage(); return { rss: m.rss, heap: m.heapUsed, buffers: m.arrayBuffers }; };

let started = performance.now();
const crawl = plantedCrawl(options);
console.log(`generated ${crawl.size} pages on ${crawl.hosts.length} hosts, ${crawl.linkTargets.length} links in ${(performance.now() - started).toFixed(0)} ms`);

// Check the results once before timing: every planted collection is one cluster of copies + 1 collections × pages (mixed growth).
started = performance.now();
const similar = similarPages(crawl.texts, SIMILARITY);
const exact = collectionsOfGraph(crawl, similar, { growth: 'paper' });
const mixed = collectionsOfGraph(crawl, similar, {});
const checkMs = performance.now() - started;
function check(found: ReplicatedCollections, cardinality: number, size: number): void {
  for (let k = 0; k < options.collections; k++) {
    const root = crawl.urls.indexOf(`http://www.coll${k}.example/docs/index.html`);
    const c = found.clusters[found.clusterOf[root]];
    if (!c || c.cardinality !== cardinality || c.size !== size) throw new Error(`collection ${k}: got ${c ? `${c.cardinality} × ${c.size}` : 'nothing'}, expected ${cardinality} × ${size}`);
    for (const p of c.pages) if (p !== HOLE && crawl.collection[p] !== k) throw new Error(`collection ${k}'s cluster holds ${crawl.urls[p]}`);
  }
}
check(mixed, options.copies + options.partialMirrors, options.pages);
check(exact, options.copies + options.partialMirrors, Math.round(options.pages / 2));
console.log(`checked: ${options.collections} planted clusters recovered (mixed ${options.copies + options.partialMirrors} × ${options.pages}), no cluster mixes collections; first run ${checkMs.toFixed(0)} ms`);

const stages: Array<[string, () => unknown]> = [
  ['page similarity (2-line chunks, T = 4) → trivial clusters', () => similarPages(crawl.texts, SIMILARITY)],
  ['LinkSummary + merge + growth (paper)', () => collectionsOfGraph(crawl, similar, { growth: 'paper' })],
  ['rows + column split + assembly + checks (mixed)', () => collectionsOfGraph(crawl, similar, {})],
  ['avoid-list', () => avoidList(mixed, crawl)],
];
const rows: Record<string, string | number>[] = [];
for (const [name, fn] of stages) {
  globalThis.gc?.();
  const before = memory();
  let peak = before.rss;
  const bench = new Bench({ iterations: quick ? 2 : 3, time: 0, warmupIterations: 0, warmupTime: 0, now: clockNow(clock) });
  bench.add(name, () => { fn(); peak = Math.max(peak, process.memoryUsage().rss); });
  await bench.run();
  const after = memory();
  const result = bench.tasks[0].result as unknown as { latency: { mean: number; p50: number } };
  rows.push({
    stage: name, 'median ms': Math.round(result.latency.p50), 'pages/s': Math.round(crawl.size / (result.latency.p50 / 1000)),
    'rss after': mb(after.rss), 'peak rss': mb(peak), 'heap Δ': mb(after.heap - before.heap), 'buffers': mb(after.buffers),
  });
}
console.table(rows);
const s: SimilarPages = similar;
const list = avoidList(mixed, crawl);
const r = list.redundancy;
console.log(`trivial clusters ${s.trivial.count}, similar clusters ${mixed.clusters.length} (${mixed.clusters.filter((c) => !c.noise).length} not noise), `
  + `replicated link groups ${mixed.stats.replicatedEdges}, paper merge edges ${exact.stats.mergeEdges}`);
console.log(`avoid-list: ${list.entries.length} entries skip ${r.skippedPages} of ${r.pages} pages; similar pages ${(100 * r.similarPages / r.pages).toFixed(1)}% → ${(100 * r.similarPagesAfter / (r.pages - r.skippedPages)).toFixed(1)}% after skipping`);
const end = process.memoryUsage();
console.log(`memory: rss ${mb(end.rss)}, heap used ${mb(end.heapUsed)}, array buffers ${mb(end.arrayBuffers)}`);
