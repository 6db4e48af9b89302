// Where the DuckDB engine's time goes: runs `nearDuplicatesOfCrawl` with `engine: 'duckdb'` on a
// crawl in this process and prints, for each step (sketching; the candidate step's common, load,
// cap, pairs and read; building the clusters' evidence; the exact checks; the clusters settled
// again), its wall time, the process's CPU time (user + system, worker threads included), the
// bytes the process read through read() in it (rchar of /proc/self/io: page-cache copies count,
// whether or not the disk was touched) and the highest resident set size sampled in it (every
// 100 ms; worker threads and DuckDB included). Linux only (rchar).
//
//   node --import tsx bench/spilled-phases.ts CRAWL.jsonl [--workers 2] [--memory-limit 2GB] [--temp-dir DIR] [--root CHECKOUT]
//
// --root runs another checkout's sources (its src/cluster/stream.ts, or src/pipeline/near-duplicates.ts
// in checkouts from before the stream moved beside its capability), to compare two
// versions on the same crawl and machine.
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const flag = (name: string, fallback?: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const input = argv.find((a, i) => !a.startsWith('--') && (i === 0 || !argv[i - 1].startsWith('--')));
if (!input) {
  console.error('usage: node --import tsx bench/spilled-phases.ts CRAWL.jsonl [--workers 2] [--memory-limit 2GB] [--temp-dir DIR] [--root CHECKOUT]');
  process.exit(2);
}
const root = resolve(flag('--root', join(dirname(fileURLToPath(import.meta.url)), '..'))!);
const { init } = await import(pathToFileURL(join(root, 'src/index.ts')).href);
const streamFile = ['src/cluster/stream.ts', 'src/pipeline/near-duplicates.ts'].map((f) => join(root, f)).find((f) => existsSync(f))!;
const { nearDuplicatesOfCrawl } = await import(pathToFileURL(streamFile).href);
await init();

function rchar(): number {
  const m = /rchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'));
  return m ? Number(m[1]) : NaN;
}
function cpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

interface Mark { name: string; wall: number; cpu: number; rchar: number; rss: number }
const marks: Mark[] = [];
let rss = 0;
const mark = (name: string) => { rss = Math.max(rss, process.memoryUsage.rss()); marks.push({ name, wall: performance.now() / 1000, cpu: cpu(), rchar: rchar(), rss }); rss = 0; };
const loads: number[] = [];
const sampler = setInterval(() => loads.push(loadavg()[0]), 1000);
const rssSampler = setInterval(() => { rss = Math.max(rss, process.memoryUsage.rss()); }, 100);

mark('start');
let sketched = false;
const found = await nearDuplicatesOfCrawl(input, {
  engine: 'duckdb', workers: Number(flag('--workers', '2')),
  engineOptions: { memoryLimit: flag('--memory-limit', '2GB'), ...(flag('--temp-dir') ? { tempDir: flag('--temp-dir') } : {}) },
  onProgress: (e: { stage: string; state?: string; detail?: string; done?: boolean | number }) => {
    if (e.stage !== 'sketching' && !sketched) { sketched = true; mark('sketching'); }
    if (e.stage === 'candidates' && e.state === 'step' && e.done) mark(e.detail!);
    if (e.stage === 'candidates' && e.state === 'done') mark('clusters and evidence');
    if (e.stage === 'clusters' && e.state === 'done') mark('exact checks, clusters again');
  },
});
const c = found.nd.clusters;
found.close();
mark('end');
clearInterval(sampler);
clearInterval(rssSampler);

console.log(`${input}: ${found.crawl.urls.length} pages, ${found.nd.stats.candidatePairs} candidate pairs, ${c.count} clusters of ${c.stats.clusteredDocuments} pages, ${found.exactPairs} pairs checked exactly`);
console.log('step                            wall s    CPU s   rchar MB  peak RSS MiB');
for (let i = 1; i < marks.length; i++) {
  const a = marks[i - 1], b = marks[i];
  if (b.name === 'end' && b.wall - a.wall < 0.05) continue;
  console.log(`${b.name.padEnd(30)} ${(b.wall - a.wall).toFixed(1).padStart(7)} ${(b.cpu - a.cpu).toFixed(1).padStart(8)} ${((b.rchar - a.rchar) / 2 ** 20).toFixed(0).padStart(10)} ${(b.rss / 2 ** 20).toFixed(0).padStart(13)}`);
}
const first = marks[0], last = marks[marks.length - 1];
console.log(`${'total'.padEnd(30)} ${(last.wall - first.wall).toFixed(1).padStart(7)} ${(last.cpu - first.cpu).toFixed(1).padStart(8)} ${((last.rchar - first.rchar) / 2 ** 20).toFixed(0).padStart(10)}`);
const mean = loads.reduce((s, x) => s + x, 0) / Math.max(1, loads.length);
console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB; load average ${mean.toFixed(1)} (at most ${Math.max(...loads).toFixed(1)})`);
