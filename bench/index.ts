// `npm run bench`: one table, every row measured in this run on the same bytes — resemble's Rabin
// chunking and rolling fingerprints beside rabin-wasm, raw HTML → MIN_s sketches beside datasketch
// (Python, when found) and the MinHash of bloom-filters and minhash, the pipeline's per-stage costs,
// 1 vs N workers, and the byte-loop ceiling for each input; resemble's rows on the SIMD and the
// scalar build. Timed with tinybench (median latency); every task is checked against a reference first.
// Flags: --json (the report as JSON), --quick (small sizes, fewer iterations: a smoke run),
// --clock wall|cpu|auto (default auto: CPU time when the machine is busier than its cores),
// --corpus DIR (the .html pages under DIR; default $RESEMBLE_BENCH_CORPUS, else the bundled sample),
// --only SECTION[,SECTION] (rabin, sketch, stages, workers, peers: only those rows; default all),
// --rounds N (the peers table's interleaved rounds, default 3; 1 with --quick),
// --venv DIR (the Python peers' virtual environment, default .venv-bench/ at the repository's root,
// created with bench/requirements.txt's pins when missing; a skip row saying why when it cannot be).
import { availableParallelism } from 'node:os';
import { Bench } from 'tinybench';
import { loadSample } from '../src/bench/corpus.js';
import { machine } from '../src/bench/machine.js';
import { chooseClock, clockLine, clockNow } from '../src/bench/measure.js';
import { buildReport, formatReport, type BenchResult } from '../src/bench/report.js';
import { prepare, rabinTasks, sketchTasks, stageTasks, workerTasks, type BenchTask } from '../src/bench/tasks.js';
import { init } from '../src/index.js';
import { createPool } from '../src/stream/pool-node.js';
import { contenderResults } from '../src/bench/contenders.js';
import { datasketchTasks, minHashTasks, rabinWasmTasks } from './peers.js';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const { values: args } = parseArgs({ options: { quick: { type: 'boolean' }, json: { type: 'boolean' }, clock: { type: 'string' }, corpus: { type: 'string' }, only: { type: 'string' }, rounds: { type: 'string' }, venv: { type: 'string' } } });
const quick = args.quick ?? false;
const json = args.json ?? false;
const RABIN_SIZES = quick ? [4 << 10, 256 << 10] : [4 << 10, 256 << 10, 4 << 20, 32 << 20];
const PAGE_SIZES = quick ? [256 << 10] : [64 << 10, 1 << 20, 16 << 20];
// A task slower than this per call gets a fixed number of iterations instead of a time budget.
const SLOW_MS = 250;
// A task faster than this per call is repeated inside one tinybench iteration (timer resolution).
const MIN_CALL_MS = 5;
const m = machine();
const clock = chooseClock(args.clock, m);

const log = (s: string) => { if (process.stderr.isTTY) process.stderr.write(s); };
const corpusDir = args.corpus ?? process.env.RESEMBLE_BENCH_CORPUS;
const corpus = corpusDir ? loadSample(corpusDir, 'HTML pages') : loadSample();
const workers = Math.max(2, availableParallelism());
await init();
const pools = [createPool({ workers: 1 }), createPool({ workers })];
const SECTIONS = ['rabin', 'sketch', 'stages', 'workers', 'peers'] as const;
const only = (args.only ?? SECTIONS.join(',')).split(',');
for (const s of only) if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`--only: unknown section ${s} (${SECTIONS.join(', ')})`);
const want = (s: (typeof SECTIONS)[number]) => only.includes(s);
const tasks: BenchTask[] = [
  ...(want('rabin') ? [...rabinTasks(corpus, RABIN_SIZES), ...(await rabinWasmTasks(corpus, RABIN_SIZES))] : []),
  ...(want('sketch') ? [...sketchTasks(corpus, PAGE_SIZES), ...(await datasketchTasks(corpus, quick)), ...minHashTasks(corpus)] : []),
  ...(want('stages') ? stageTasks(corpus) : []),
  ...(want('workers') ? workerTasks(corpus, pools[0], pools[1]) : []),
];
// keep each input's rows together: ceiling, resemble, peers
const order = (t: BenchTask) => ['ceiling', 'ours', 'peer'].indexOf(t.role);
const inputs = [...new Set(tasks.map((t) => `${t.section}\u0000${t.input}`))];
tasks.sort((a, b) => inputs.indexOf(`${a.section}\u0000${a.input}`) - inputs.indexOf(`${b.section}\u0000${b.input}`) || order(a) - order(b));

const started = performance.now();
const results: BenchResult[] = [];
try {
  for (const [i, task] of tasks.entries()) {
    log(`\r[${i + 1}/${tasks.length}] ${task.name} · ${task.input}`.padEnd(78));
    prepare(task);
    await task.check();
    if (task.measured) {
      results.push({ task, ms: await task.measured(), runs: quick ? 2 : 5 });
      continue;
    }
    const now = clockNow(task.section === 'workers' ? 'wall' : clock);
    const t0 = now();
    await task.run();
    const once = Math.max(now() - t0, 0.001);
    const slow = once > SLOW_MS;
    const reps = Math.max(1, Math.ceil(MIN_CALL_MS / once));
    const bench = new Bench({
      now,
      time: quick ? 50 : slow ? 0 : 400,
      iterations: quick ? 2 : slow ? 3 : 10,
      warmupIterations: 1,
      warmupTime: 0,
    });
    bench.add(task.name, reps === 1 ? () => task.run() : async () => { for (let k = 0; k < reps; k++) await task.run(); });
    await bench.run();
    const r = bench.tasks[0].result;
    if (r.state !== 'completed') throw new Error(`${task.name} on ${task.input}: ${r.state}${'error' in r ? `: ${String((r as { error?: unknown }).error)}` : ''}`);
    results.push({ task, ms: r.latency.p50 / reps, runs: r.latency.samplesCount * reps });
  }
  if (want('peers')) {
    prepare({ build: 'simd' } as BenchTask);
    const rounds = Number(args.rounds ?? (quick ? 1 : 3));
    if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: expected a positive integer, got ${args.rounds}`);
    const venv = args.venv ?? fileURLToPath(new URL('../.venv-bench', import.meta.url));
    results.push(...await contenderResults(corpus, { rounds, clock, venv, log: (line) => log(`\r${line}`.padEnd(78)) }));
  }
} finally {
  await Promise.all(pools.map((p) => p.close()));
  prepare({ build: 'simd' } as BenchTask);
}
log(`\r${''.padEnd(78)}\r`);
const report = buildReport(m, `timing: tinybench ${quick ? '(--quick) ' : ''}median latency by ${clockLine(clock)}, ≥ ${quick ? 2 : 3} iterations after 1 warm-up (≥ 10 and 400 ms for tasks under ${SLOW_MS} ms); every task checked against a reference first; ${((performance.now() - started) / 1000).toFixed(0)} s in all`, results);
process.stdout.write(json ? JSON.stringify(report, null, 2) + '\n' : formatReport(report));
