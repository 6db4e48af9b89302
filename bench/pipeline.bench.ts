// `resemble dups` end to end on a crawl, side by side in one run: MiB/s of input with 1 and with
// N workers, peak RSS (worker threads included), and the datasketch pipeline users pick today
// (tag stripping, MinHash-128, MinHashLSH at 0.5) on the same file. Each run is its own process,
// so peaks do not mix; rounds alternate the tasks, so load from other work falls on all of them.
//
//   node --import tsx bench/pipeline.bench.ts CRAWL.jsonl [--large CRAWL2.jsonl] [--rounds 3] [--workers N]
//
// dups runs as users run it, from the built package (dist/, `npm run build`), each run in a process
// of plain JavaScript (pipeline-child.mjs): run from the TypeScript sources, every worker thread also
// holds tsx's compiler and the peak RSS is about 100 MB higher; with tsx loaded in the main thread
// alone, runs took 0.1–0.4 s longer and peaked 15–40 MB higher on the scale crawl.
//
// --large: a crawl of the same pages, each about twice as large: peak RSS must not follow page size.
// datasketch is found through DATASKETCH_PATH (put on PYTHONPATH) or PYTHONPATH; without it that row is skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { machine, machineLine } from '../src/bench/machine.js';

interface Run { seconds: number; cpu: number; rssMB: number; out: string }

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const argv = process.argv.slice(2);

const flag = (name: string, fallback?: string) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const crawl = argv.find((a, i) => !a.startsWith('--') && (i === 0 || !argv[i - 1].startsWith('--')));
if (!crawl) { console.error('usage: node --import tsx bench/pipeline.bench.ts CRAWL.jsonl [--large CRAWL2.jsonl] [--rounds 3] [--workers N]'); process.exit(2); }
const large = flag('--large');
if (!existsSync(join(root, 'dist', 'cli.js'))) { console.error('dist/cli.js is missing: run `npm run build` first'); process.exit(2); }
const rounds = Number(flag('--rounds', '3'));
const workers = Number(flag('--workers', String(Math.max(2, availableParallelism()))));
const MiB = 1024 * 1024;

function dups(file: string, w: number): Run {
  const r = spawnSync(process.execPath, [join(here, 'pipeline-child.mjs'), file, '--workers', String(w)], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`dups --workers ${w} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Run;
}

const pythonPath = [process.env.DATASKETCH_PATH, process.env.PYTHONPATH].filter(Boolean).join(':');
const hasDatasketch = pythonPath !== '' && spawnSync('python3', ['-c', 'import datasketch'], { env: { ...process.env, PYTHONPATH: pythonPath } }).status === 0;
function datasketch(file: string): Run {
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', 'python3', join(here, 'pipeline_datasketch.py'), file], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: pythonPath }, maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`datasketch pipeline failed: ${r.stderr}`);
  const result = JSON.parse(r.stdout.trim()) as { seconds: number; clusters: number; pages: number };
  const [rss, user, sys] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { seconds: result.seconds, cpu: user + sys, rssMB: rss / 1024, out: `${result.pages} pages, ${result.clusters} clusters` };
}

const results = new Map<string, Run[]>();
const bench = new Bench({ iterations: rounds, time: 0, warmupIterations: 0, warmupTime: 0 });
const task = (name: string, f: () => Run) => bench.add(name, () => { const r = f(); results.set(name, [...(results.get(name) ?? []), r]); });
task('dups, 1 worker', () => dups(crawl, 1));
task(`dups, ${workers} workers`, () => dups(crawl, workers));
if (large) task(`dups, ${workers} workers, pages ~2× larger`, () => dups(large, workers));
if (hasDatasketch) task('datasketch MinHash-128 + MinHashLSH 0.5', () => datasketch(crawl));
const before = machine();
await bench.run();

const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const size = (f: string) => statSync(f).size;
console.log(`pipeline: ${crawl} (${(size(crawl) / MiB).toFixed(0)} MiB)${large ? `, large ${large} (${(size(large) / MiB).toFixed(0)} MiB)` : ''}; ${rounds} rounds, median`);
console.log(`before: ${machineLine(before)}`);
console.log(`after:  ${machineLine(machine())}`);
console.log('task                                          MiB/s   seconds  CPU s  peak RSS MB');
const rows = [...results.entries()].map(([name, runs]) => {
  const file = name.includes('larger') ? large! : crawl;
  const seconds = median(runs.map((r) => r.seconds));
  return { name, seconds, cpu: median(runs.map((r) => r.cpu)), rate: size(file) / MiB / seconds, rss: Math.max(...runs.map((r) => r.rssMB)), out: runs[0].out };
});
for (const r of rows) console.log(`${r.name.padEnd(44)} ${r.rate.toFixed(1).padStart(6)}  ${r.seconds.toFixed(1).padStart(7)}  ${r.cpu.toFixed(1).padStart(5)}  ${r.rss.toFixed(0).padStart(11)}`);
const one = rows.find((r) => r.name === 'dups, 1 worker')!, many = rows.find((r) => r.name === `dups, ${workers} workers`)!;
console.log(`${workers} workers vs 1: ${(one.seconds / many.seconds).toFixed(2)}×`);
const big = rows.find((r) => r.name.includes('larger'));
if (big) console.log(`peak RSS with pages ~2× larger: ${(big.rss / many.rss).toFixed(2)}× (${big.rss.toFixed(0)} vs ${many.rss.toFixed(0)} MB)`);
const peer = rows.find((r) => r.name.startsWith('datasketch'));
if (peer) console.log(`datasketch pipeline vs dups with ${workers} workers: ${(peer.seconds / many.seconds).toFixed(1)}× the time (${(peer.cpu / many.cpu).toFixed(1)}× the CPU time; ${peer.out})`);
else console.log('datasketch: skipped (set DATASKETCH_PATH or PYTHONPATH to a datasketch checkout)');
for (const r of rows) if (r.name.startsWith('dups')) console.log(`${r.name}: ${r.out}`);
