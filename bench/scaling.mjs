// How far `resemble dups` can scale from 1 worker to N on this machine, and where the rest goes:
// runs `dups --workers 1` and `--workers N` in turn (each in a process of its own, as
// pipeline-child.mjs runs it), reads every thread's CPU time from /proc while they run, and prints
// per run and as medians:
//
//   wall    the run's seconds
//   cpu     CPU seconds of all its threads (W)
//   main    the reading thread's CPU (with 1 worker it also sketches)
//   workers the sketch workers' CPU (the N threads started last: the pool starts at the first batch)
//   other   V8's compiler and collector threads, libuv's file threads, a gzip input's inflating thread
//   serial  seconds in which the reading thread ran and no sketch worker did (S: stages that run
//           on one thread, such as candidate planning, clustering and writing the output)
//
// and the bound these allow: with C cores, a run of N workers needs at least W1 of CPU (the work
// of the 1-worker run), of which S runs on one core while the others wait, so
//   T_N >= S + (W1 - S) / C      and      speed-up = T1 / T_N <= T1 / (S + (W1 - S) / C).
// S is taken from the N-worker run. The bound assumes the N-worker run costs no CPU beyond the
// 1-worker run's: `cpu N - cpu 1` is what it does cost (threads' start-up, their compilers and
// collectors, pages handed across threads).
//
// The serial share is f = S / W1, the part of the run's work that runs on one thread, and
// Amdahl's law bounds the speed-up on C cores by W1 / (S + (W1 - S) / C) = 1 / (f + (1 - f) / C):
// printed for this machine's cores and for 16 and 32 (f = 3% gives 16.6× at 32 cores; 20× there
// needs f under 1.9%). The CPU that stays in the reading thread while the workers run (parsing,
// handing pages over) is not in S: with more workers than the reading thread can feed it becomes
// the bound instead, so the reading thread's share of W1 is printed too.
//
// With --cli, each build named (a cli.js: another checkout's dist/cli.js) is timed in turn in
// every round, in the same run: a before-and-after comparison under the same load.
//
// CRAWL is any input `dups` reads. Linux only (/proc). Build first (`npm run build`).
//
//   node bench/scaling.mjs CRAWL [--workers N] [--rounds 3] [--cli A/dist/cli.js --cli B/dist/cli.js]
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const flag = (name, fallback) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : fallback; };
const crawl = argv.find((a, i) => !a.startsWith('--') && (i === 0 || !argv[i - 1].startsWith('--')));
if (!crawl) { console.error('usage: node bench/scaling.mjs CRAWL [--workers N] [--rounds 3]'); process.exit(2); }
if (!existsSync('/proc/self/task')) { console.error('bench/scaling.mjs reads thread CPU times from /proc: Linux only'); process.exit(2); }
if (!existsSync(join(here, '..', 'dist', 'cli.js'))) { console.error('dist/cli.js is missing: run `npm run build` first'); process.exit(2); }
const cores = availableParallelism();
const workers = Number(flag('--workers', String(Math.max(2, cores))));
const rounds = Number(flag('--rounds', '3'));
const clis = argv.flatMap((a, i) => (a === '--cli' ? [argv[i + 1]] : []));
const builds = clis.length > 0 ? clis : [undefined];
const TICK = 100; // clock ticks a second in /proc/*/stat (USER_HZ)
const POLL_MS = 50;

/** Thread id → CPU ticks so far, of every thread of process `pid`; `starts` gets each thread's start time. */
function threadTicks(pid, starts) {
  const out = new Map();
  let tids = [];
  try { tids = readdirSync(`/proc/${pid}/task`); } catch { return out; }
  for (const tid of tids) {
    try {
      const s = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      out.set(tid, Number(f[11]) + Number(f[12]));
      starts.set(tid, Number(f[19]));
    } catch { /* the thread ended between the listing and the read */ }
  }
  return out;
}

/** One `dups` run with w workers; its figures. */
function run(w, cli) {
  return new Promise((resolve, reject) => {
    const env = cli ? { ...process.env, RESEMBLE_CLI: cli } : process.env;
    const child = spawn(process.execPath, [join(here, 'pipeline-child.mjs'), crawl, '--workers', String(w)], { stdio: ['ignore', 'pipe', 'inherit'], env });
    const pid = String(child.pid);
    const samples = []; // per poll: thread → ticks since the previous poll
    let last = new Map();
    const total = new Map(), starts = new Map();
    const poll = () => {
      const now = threadTicks(pid, starts);
      if (now.size === 0) return;
      const d = new Map();
      for (const [t, v] of now) { d.set(t, v - (last.get(t) ?? 0)); total.set(t, v); }
      samples.push(d);
      last = now;
    };
    const timer = setInterval(poll, POLL_MS);
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`dups --workers ${w} exited with code ${code}`));
      const result = JSON.parse(out.trim().split('\n').pop());
      // the sketch workers: the w threads started last among those that did work (the pool starts
      // at the first batch, after V8's threads, libuv's and a gzip input's inflating thread); none
      // with 1 worker, which sketches on the reading thread
      const sketchers = w > 1 ? [...total.entries()].filter(([t, v]) => t !== pid && v >= 0.05 * TICK).sort((a, b) => starts.get(b[0]) - starts.get(a[0]) || b[1] - a[1]).slice(0, w).map(([t]) => t) : [];
      const sum = (ids) => ids.reduce((a, t) => a + (total.get(t) ?? 0), 0) / TICK;
      const main = (total.get(pid) ?? 0) / TICK;
      const sketch = sum(sketchers);
      const all = sum([...total.keys()]);
      let serial = 0;
      if (w > 1) for (const d of samples) if ((d.get(pid) ?? 0) > 0 && sketchers.every((t) => (d.get(t) ?? 0) === 0)) serial += POLL_MS / 1000;
      resolve({ wall: result.seconds, cpu: result.cpu, main, workers: sketch, other: Math.max(0, all - main - sketch), serial, out: result.out });
    });
  });
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const f2 = (x) => x.toFixed(2).padStart(6);
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const name = (cli) => cli ?? 'dist/cli.js';
console.log(`${crawl}: dups with 1 and ${workers} workers, ${rounds} rounds, ${cores} cores, load ${load()}`);
console.log('round workers   wall    cpu   main workers  other serial  build');
const one = builds.map(() => []), many = builds.map(() => []);
for (let r = 1; r <= rounds; r++) {
  for (let b = 0; b < builds.length; b++) {
    for (const w of [1, workers]) {
      const x = await run(w, builds[b]).catch((e) => { console.error(`bench/scaling.mjs: ${e.message}`); process.exit(1); });
      (w === 1 ? one : many)[b].push(x);
      console.log(`${String(r).padStart(5)} ${String(w).padStart(7)} ${f2(x.wall)} ${f2(x.cpu)} ${f2(x.main)} ${f2(x.workers)} ${f2(x.other)} ${f2(x.serial)}  ${name(builds[b])}`);
    }
  }
}
const amdahl = (f, c) => 1 / (f + (1 - f) / c);
for (let b = 0; b < builds.length; b++) {
  const m = (xs, k) => median(xs.map((x) => x[k]));
  const T1 = m(one[b], 'wall'), W1 = m(one[b], 'cpu'), TN = m(many[b], 'wall'), WN = m(many[b], 'cpu'), S = m(many[b], 'serial'), M1 = m(one[b], 'main'), MN = m(many[b], 'main');
  const bound = T1 / (S + (W1 - S) / cores);
  const ratios = one[b].map((x, i) => x.wall / many[b][i].wall);
  const cpuRatios = one[b].map((x, i) => x.cpu / many[b][i].cpu);
  const f = S / W1;
  console.log(`${name(builds[b])}:`);
  console.log(`  medians: 1 worker ${T1.toFixed(2)} s (CPU ${W1.toFixed(2)} s, reading thread ${M1.toFixed(2)} s); ${workers} workers ${TN.toFixed(2)} s (CPU ${WN.toFixed(2)} s, reading thread ${MN.toFixed(2)} s, serial ${S.toFixed(2)} s)`);
  console.log(`  speed-up ${median(ratios).toFixed(2)}× (rounds: ${ratios.map((x) => x.toFixed(2)).join(', ')}); CPU ${workers} workers / 1: ${median(cpuRatios.map((x) => 1 / x)).toFixed(2)}`);
  console.log(`  serial share ${(100 * f).toFixed(1)}% of the 1-worker run's CPU; Amdahl's bound ${amdahl(f, cores).toFixed(2)}× on ${cores} cores, ${amdahl(f, 16).toFixed(1)}× on 16, ${amdahl(f, 32).toFixed(1)}× on 32`);
  console.log(`  reading thread with ${workers} workers: ${(100 * MN / W1).toFixed(1)}% of the 1-worker run's CPU (caps the speed-up near ${(W1 / MN).toFixed(1)}× however many workers)`);
  console.log(`  bound on ${cores} cores from the 1-worker run's wall time and the serial time: ${bound.toFixed(2)}×; without serial stages: ${(cores * T1 / W1).toFixed(2)}×`);
  console.log(`  CPU the ${workers}-worker run adds: ${(WN - W1).toFixed(2)} s (median difference)`);
  const outs = new Set([...one[b], ...many[b]].map((x) => x.out.replace(/ in [\d.]+ s \([^)]*\)/, '').replace(/, \d+ workers?$/, '')));
  if (outs.size > 1) console.log('  THE RUNS PRINTED DIFFERENT SUMMARIES');
}
console.log(`load after: ${load()}`);
