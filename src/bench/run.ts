// `resemble bench` without tinybench: the same tasks as `npm run bench` minus the npm peers,
// timed by ./measure.ts (warm-up, then the median of several runs).
import { availableParallelism } from 'node:os';
import { intOption, rejectUnknown } from '../errors.js';
import { init } from '../wasm/loader.js';
import { createPool } from '../stream/pool-node.js';
import type { Pool } from '../stream/pool.js';
import { resolve } from 'node:path';
import { contenderResults } from './contenders.js';
import { loadFiles, loadSample, type Corpus } from './corpus.js';
import { machine } from './machine.js';
import { chooseClock, clockLine, measure } from './measure.js';
import { buildReport, type BenchReport, type BenchResult } from './report.js';
import { prepare, rabinTasks, sketchTasks, stageTasks, workerTasks, type BenchTask } from './tasks.js';

/** Options of runBench; every one has a default. */
export interface RunBenchOptions {
  /** Files or folders to benchmark on. Default: the bundled sample crawl. */
  files?: readonly string[];
  /** Buffer sizes for the Rabin rows and the one-big-page sketch rows (bytes). Default [64 KiB, 4 MiB]. */
  sizes?: readonly number[];
  /** Workers of the N-worker row, 2..256. Default: the hardware threads, at least 2. */
  workers?: number;
  /** Timed runs per task (the median is reported), 1..1000. Default 5. */
  runs?: number;
  /** Untimed runs first, 0..100. Default 1. */
  warmup?: number;
  /** 'wall', 'cpu' (this process's CPU time), or 'auto' (default): CPU time when the machine is busier than its cores. Worker rows always use wall-clock time. */
  clock?: 'auto' | 'wall' | 'cpu';
  /** Also the peers table: resemble beside rensa, datasketch and datatrove (Python), each in a process of its own. Default false. */
  peers?: boolean;
  /** The peers table's interleaved rounds, 1..100. Default 3. */
  rounds?: number;
  /** The Python peers' virtual environment, created with bench/requirements.txt's pins when missing. Default .venv-bench in the working folder. */
  venv?: string;
  /** Progress lines of the peers table (creating the environment, each round). */
  onLine?: (line: string) => void;
  /** Called before each task is checked and timed (for a progress line). */
  onTask?: (task: BenchTask, index: number, total: number) => void;
}

/** Takes the corpus and its options; returns every task of a run and the pools to close after it. */
export async function benchTasks(corpus: Corpus, sizes: readonly number[], workers: number): Promise<{ tasks: BenchTask[]; pools: Pool[] }> {
  await init();
  const one = createPool({ workers: 1 });
  const many = createPool({ workers });
  return {
    tasks: [...rabinTasks(corpus, sizes), ...sketchTasks(corpus, sizes), ...stageTasks(corpus), ...workerTasks(corpus, one, many)],
    pools: [one, many],
  };
}

/** Takes options; checks and times every task; returns the report (format it with formatReport). */
export async function runBench(options: RunBenchOptions = {}): Promise<BenchReport> {
  rejectUnknown(options, ['files', 'sizes', 'workers', 'runs', 'warmup', 'clock', 'peers', 'rounds', 'venv', 'onLine', 'onTask'], 'runBench');
  const m = machine();
  const clock = chooseClock(options.clock, m);
  const workers = intOption('workers', options.workers, Math.max(2, availableParallelism()), 2, 256);
  const runs = intOption('runs', options.runs, 5, 1, 1000);
  const warmup = intOption('warmup', options.warmup, 1, 0, 100);
  const rounds = intOption('rounds', options.rounds, 3, 1, 100);
  const sizes = options.sizes ?? [64 << 10, 4 << 20];
  const corpus = options.files?.length ? loadFiles(options.files) : loadSample();
  const { tasks, pools } = await benchTasks(corpus, sizes, workers);
  const results: BenchResult[] = [];
  try {
    for (const [i, task] of tasks.entries()) {
      options.onTask?.(task, i, tasks.length);
      prepare(task);
      await task.check();
      const t = await measure(() => task.run(), { warmup, runs, clock: task.section === 'workers' ? 'wall' : clock });
      results.push({ task, ms: t.ms, runs: t.runs * t.calls });
    }
    if (options.peers) {
      prepare({ build: 'simd' } as BenchTask);
      results.push(...await contenderResults(corpus, { rounds, clock, venv: options.venv ?? resolve('.venv-bench'), log: options.onLine }));
    }
  } finally {
    await Promise.all(pools.map((p) => p.close()));
    prepare({ build: 'simd' } as BenchTask);
  }
  return buildReport(m, `timing: median of ${runs} runs after ${warmup} warm-up run${warmup === 1 ? '' : 's'}, ${clockLine(clock)}; every task checked against a reference before timing`, results);
}
