// Where the CPU of `dups --engine duckdb` goes, step by step: runs `findNearDuplicates` from the
// built package (dist/) on a crawl and prints, for each stage of the pipeline (sketching, then the
// DuckDB engine's steps: common values, loading the keys, cap, pairs, reading and estimating the
// candidate pairs, then the exact checks and the clusters), its wall seconds and the process's CPU
// seconds in it (user and system, every thread: the sketch workers and DuckDB's threads
// included), and that CPU per page. On a shared machine CPU is the figure to compare across
// crawl sizes (bench/pipeline-scale.ts generates the crawls); the most temporary disk is sampled
// every second, as there.
//
//   npm run build && node bench/engine-steps.mjs CRAWL [--memory-limit 2GB] [--workers 2] [--temp-dir DIR] [--threads N]
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const flag = (name, fallback) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const crawl = argv[0];
if (!crawl || crawl.startsWith('--')) {
  console.error('usage: node bench/engine-steps.mjs CRAWL [--memory-limit 2GB] [--workers 2] [--temp-dir DIR] [--threads N]');
  process.exit(2);
}
const { init, findNearDuplicates } = await import(new URL('../dist/node.js', import.meta.url).href);
await init();
const base = flag('--temp-dir', tmpdir());
mkdirSync(base, { recursive: true });
const tmp = mkdtempSync(join(base, 'engine-steps-'));
const engineOptions = { memoryLimit: flag('--memory-limit', '2GB'), tempDir: tmp };
if (flag('--threads')) engineOptions.threads = Number(flag('--threads'));

function folderSize(dir) {
  let total = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, name.name);
    try { total += name.isDirectory() ? folderSize(p) : statSync(p).blocks * 512; } catch { /* removed while walking */ }
  }
  return total;
}
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };
const rows = [];
let current = { name: 'sketching', wall: performance.now(), cpu: cpu() };
const enter = (name) => {
  const now = performance.now(), c = cpu();
  if (current.name !== name) {
    rows.push({ name: current.name, wall: (now - current.wall) / 1000, cpu: c - current.cpu });
    current = { name, wall: now, cpu: c };
  }
};
let peakDisk = 0, loadSum = 0, loadMax = 0, loadN = 0;
const timer = setInterval(() => {
  try { peakDisk = Math.max(peakDisk, folderSize(tmp)); } catch { /* folder changing */ }
  const l = loadavg()[0]; loadSum += l; loadMax = Math.max(loadMax, l); loadN++;
}, 1000);
const started = performance.now(), cpu0 = cpu();
let summary;
try {
  ({ summary } = await findNearDuplicates(crawl, {
    engine: 'duckdb', engineOptions, workers: Number(flag('--workers', '2')),
    onProgress: (e) => {
      if (e.stage === 'candidates' && e.state === 'step') enter(e.done ? 'candidates (other)' : `engine: ${e.detail}`);
      else if (e.stage === 'candidates' && e.state === 'start') enter('candidates (other)');
      else if (e.stage === 'exact') enter('exact checks');
      else if (e.stage === 'clusters') enter('clusters');
    },
  }));
  enter('records');
} finally {
  clearInterval(timer);
  rmSync(tmp, { recursive: true, force: true });
}
enter('end');
const pages = summary.pages, total = cpu() - cpu0;
// the same step may come back (candidates (other) between engine steps): add them up, in order of first appearance
const byName = new Map();
for (const r of rows) { const s = byName.get(r.name) ?? { wall: 0, cpu: 0 }; s.wall += r.wall; s.cpu += r.cpu; byName.set(r.name, s); }
console.log(`${crawl}: ${pages} pages, ${summary.clusters} clusters, ${summary.candidatePairs} candidate pairs; memory limit ${engineOptions.memoryLimit}; `
  + `wall ${((performance.now() - started) / 1000).toFixed(1)} s, CPU ${total.toFixed(1)} s (${(1e6 * total / pages).toFixed(1)} µs a page), `
  + `temp disk at most ${(peakDisk / 1e9).toFixed(2)} GB, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB; load ${(loadSum / Math.max(1, loadN)).toFixed(1)} (at most ${loadMax.toFixed(1)})`);
console.log('step                          wall s    CPU s  CPU µs/page');
for (const [name, s] of byName) console.log(`${name.padEnd(28)} ${s.wall.toFixed(1).padStart(8)} ${s.cpu.toFixed(1).padStart(8)} ${(1e6 * s.cpu / pages).toFixed(1).padStart(12)}`);
