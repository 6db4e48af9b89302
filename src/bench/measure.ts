// The timer of `resemble bench` (tinybench is a development dependency, so the shipped command
// times itself): warm-up runs, then the median of several runs, each at least a few milliseconds
// long (short tasks are repeated inside one run so timer resolution does not dominate).
import { enumOption, intOption, rejectUnknown } from '../errors.js';
import type { Machine } from './machine.js';

/** What a run is timed by: wall-clock time, or this process's CPU time (user + system, all threads). */
export type Clock = 'wall' | 'cpu';

/** Takes a clock; returns its reading in milliseconds. */
export function clockNow(clock: Clock): () => number {
  if (clock === 'wall') return () => performance.now();
  return () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
}

/**
 * Takes 'auto' | 'wall' | 'cpu' and the machine; returns the clock. 'auto' is wall-clock time,
 * except on a machine busier than its cores, where wall time mostly measures waiting for a core:
 * there the CPU time of single-threaded tasks is the steadier figure.
 */
export function chooseClock(choice: unknown, m: Machine): Clock {
  const c = enumOption('--clock', choice, 'auto', ['auto', 'wall', 'cpu'] as const);
  return c === 'auto' ? (m.load[0] > m.cores ? 'cpu' : 'wall') : c;
}

/** How long to measure. */
export interface MeasureOptions {
  /** Runs before timing (JIT tier-up, WebAssembly memory growth, worker start). Default 1. */
  warmup?: number;
  /** Timed runs; the median is reported. Default 5. */
  runs?: number;
  /** Shortest timed run in milliseconds; a faster task is repeated within one run. Default 20. */
  minRunMs?: number;
  /** Default 'wall'. */
  clock?: Clock;
}

/** A measurement: median milliseconds per call over `runs` runs. */
export interface Timing {
  ms: number;
  runs: number;
  /** Calls per run (1 unless the task is shorter than minRunMs). */
  calls: number;
}

/** Takes a task and options; returns the median time of one call. */
export async function measure(task: () => unknown, options: MeasureOptions = {}): Promise<Timing> {
  rejectUnknown(options, ['warmup', 'runs', 'minRunMs', 'clock'], 'measure');
  const now = clockNow(options.clock ?? 'wall');
  const warmup = intOption('warmup', options.warmup, 1, 0, 100);
  const runs = intOption('runs', options.runs, 5, 1, 1000);
  const minRunMs = intOption('minRunMs', options.minRunMs, 20, 0, 60_000);
  const call = async () => { const r = task(); if (r instanceof Promise) await r; };
  for (let i = 0; i < warmup; i++) await call();
  // calibrate: repeat short tasks so one run lasts at least minRunMs
  let calls = 1;
  for (;;) {
    const t = now();
    for (let i = 0; i < calls; i++) { const r = task(); if (r instanceof Promise) await r; }
    const ms = now() - t;
    if (ms >= minRunMs || calls >= 1 << 20) break;
    calls = Math.min(1 << 20, Math.max(calls * 2, Math.ceil((calls * minRunMs) / Math.max(ms, 0.001))));
  }
  const samples: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = now();
    for (let i = 0; i < calls; i++) { const r = task(); if (r instanceof Promise) await r; }
    samples.push((now() - t) / calls);
  }
  return { ms: median(samples), runs, calls };
}

/** Takes numbers; returns their median. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Takes the clock; returns how the table says it was timed. */
export function clockLine(clock: Clock): string {
  return clock === 'wall' ? 'wall-clock time' : 'CPU time of this process (user + system) as the machine is busy, wall-clock for the worker rows';
}
