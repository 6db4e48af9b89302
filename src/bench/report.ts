// One table for every benchmark of a run: throughput per row, and per resemble row its speed-up
// over the fastest peer and its share of the byte-loop ceiling measured on the same input.
import { machineLine, type Machine } from './machine.js';
import type { BenchTask } from './tasks.js';

/** A timed task: median milliseconds per call. */
export interface BenchResult {
  task: BenchTask;
  ms: number;
  runs: number;
  /** Peak RSS of the process the task ran in alone (bytes), when it had one. */
  peakRss?: number;
}

/** One row as printed and as written by `--format json`. */
export interface BenchRow {
  section: BenchTask['section'];
  input: string;
  task: string;
  role: BenchTask['role'];
  bytes: number;
  docs: number;
  ms: number;
  runs: number;
  mbPerSecond: number;
  docsPerSecond: number;
  /** This row's speed over the fastest peer's on the same input (resemble rows with peers). */
  vsFastestPeer?: { peer: string; ratio: number };
  /** Speed-ups over the rows named in the task's `vs`. */
  vs?: Record<string, number>;
  /** This row's MB/s as a fraction of the byte-loop ceiling's on the same input. */
  ofCeiling?: number;
  /** Peak resident set size of the process that ran the row, in bytes (rows run in a process of their own). */
  peakRss?: number;
}

/** A whole run: conditions, rows, and the notes saying what each task does. */
export interface BenchReport {
  machine: Machine;
  timing: string;
  rows: BenchRow[];
  notes: string[];
}

/** Takes the machine, a timing description and the results; returns the report with ratios filled in. */
export function buildReport(machine: Machine, timing: string, results: BenchResult[]): BenchReport {
  const rows: BenchRow[] = results.map(({ task, ms, runs, peakRss }) => ({
    section: task.section, input: task.input, task: task.name, role: task.role, bytes: task.bytes, docs: task.docs, ms, runs,
    mbPerSecond: task.bytes / 1e6 / (ms / 1e3),
    docsPerSecond: task.docs / (ms / 1e3),
    ...(peakRss === undefined ? {} : { peakRss }),
  }));
  rows.forEach((row, i) => {
    if (row.role !== 'ours') return;
    const group = rows.filter((r) => r.section === row.section && r.input === row.input);
    const peers = group.filter((r) => r.role === 'peer' && Number.isFinite(r.ms)).sort((a, b) => a.ms - b.ms);
    if (peers.length) row.vsFastestPeer = { peer: peers[0].task, ratio: peers[0].ms / row.ms };
    const ceiling = group.find((r) => r.role === 'ceiling');
    if (ceiling && ceiling.bytes === row.bytes) row.ofCeiling = row.mbPerSecond / ceiling.mbPerSecond;
    const vs = [
      ...(results[i].task.vs?.map((name) => group.find((r) => r.task === name)).filter((r) => r !== undefined && r.role !== 'peer') ?? []),
      ...(results[i].task.vsPeers ? peers.slice(1) : []),   // the fastest is vsFastestPeer
    ];
    if (vs?.length) row.vs = Object.fromEntries(vs.map((r) => [r!.task, r!.ms / row.ms]));
  });
  const notes: string[] = [];
  for (const { task } of results) {
    const note = task.note && `${task.name}: ${task.note}`;
    if (note && !notes.includes(note)) notes.push(note);
  }
  return { machine, timing, rows, notes };
}

const fmt = (x: number) => (!Number.isFinite(x) ? '—' : x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 10 ? x.toFixed(1) : x.toPrecision(2));
const times = (x: number) => `${x >= 10 ? Math.round(x).toLocaleString('en-US') : x.toFixed(x >= 1 ? 2 : 3)}×`;
const percent = (x: number) => `${(x * 100).toFixed(x >= 0.1 ? 0 : x >= 0.01 ? 1 : 2)}%`;

/** Takes a report; returns it as one plain-text table with its header and notes. */
export function formatReport(r: BenchReport): string {
  const rss = r.rows.some((row) => row.peakRss !== undefined);
  const head = ['section', 'input', 'task', 'MB/s', 'docs/s', 'speed-up', 'of ceiling', ...(rss ? ['peak RSS'] : [])];
  const body = r.rows.map((row) => {
    const speedups = [
      ...(row.vsFastestPeer ? [`${times(row.vsFastestPeer.ratio)} ${row.vsFastestPeer.peer}`] : []),
      ...Object.entries(row.vs ?? {}).map(([name, x]) => `${times(x)} ${name.replace(/^resemble /, '')}`),
    ];
    const cells = [row.section, row.input, row.task, fmt(row.mbPerSecond), fmt(row.docsPerSecond), speedups.join(', '), row.ofCeiling === undefined ? '' : percent(row.ofCeiling)];
    return rss ? [...cells, row.peakRss === undefined ? '' : `${Math.round(row.peakRss / 2 ** 20)} MiB`] : cells;
  });
  const width = head.map((h, c) => Math.max(h.length, ...body.map((b) => b[c].length)));
  const numeric = new Set([3, 4, 6, 7]);
  const line = (cells: string[]) => cells.map((cell, c) => (numeric.has(c) ? cell.padStart(width[c]) : cell.padEnd(width[c]))).join('  ').trimEnd();
  const out = [`resemble bench · ${machineLine(r.machine)}`, r.timing, '', line(head), width.map((w) => '─'.repeat(w)).join('  ')];
  body.forEach((b, i) => {
    const prev = r.rows[i - 1];
    if (prev && (prev.section !== r.rows[i].section || prev.input !== r.rows[i].input)) out.push('');
    out.push(line(b));
  });
  out.push('', 'MB/s = 10^6 input bytes per second; speed-up = this row\'s time over the other\'s on the same input; of ceiling = share of the byte loop\'s MB/s.');
  for (const n of r.notes) out.push(`· ${n}`);
  return out.join('\n') + '\n';
}
