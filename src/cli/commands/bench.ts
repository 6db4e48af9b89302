import { availableParallelism } from 'node:os';
import { parseSize } from '../../bench/corpus.js';
import { formatReport } from '../../bench/report.js';
import { runBench } from '../../bench/run.js';
import { enumFlag, intFlag, OUTPUT_FORMATS, stringOf } from '../args.js';
import type { Command } from '../command.js';
import { writeRecords } from '../output.js';

/**
 * `resemble bench [files...]`: fingerprint and sketch throughput on this machine, beside the
 * byte-loop ceiling measured in the same run, and 1 vs N workers. Prints a table; with --format,
 * the rows as records (json adds the machine's conditions).
 */
export const command: Command = {
  name: 'bench',
  summary: 'measure Rabin fingerprint and HTML sketch throughput (MB/s, docs/s), 1 vs N workers, beside a byte-loop ceiling',
  usage: `Usage: resemble bench [files or folders...] [--sizes LIST] [--workers N] [--runs N] [--warmup N] [--clock auto|wall|cpu] [--peers [--rounds N] [--venv DIR]]

Without files, runs on the bundled sample crawl and buffers cut from it. Each task is checked
against a slow reference first, then timed: warm-up runs, then the median of several runs.
Rows: Rabin content-defined chunking and rolling fingerprints over buffers of each size; raw
HTML → MIN_128 sketch over the documents and over one page of each size; pool.sketchMany with 1
and N workers; each beside a plain WebAssembly loop reading every byte once (the ceiling).
With --peers, also resemble beside rensa (RMinHash, CMinHash), datasketch and datatrove's
MinHash stage on the same pages (the Python peers get each page's text), every row in a process
of its own with its peak RSS, their runs interleaved; the peers are installed with pinned
versions into a virtual environment (--venv) the first time, and a row says why when they
cannot be (no Python 3.10+, no network).
Prints a table; --format json|jsonl|csv writes the rows as records instead.

Flags:
  --sizes LIST          buffer sizes, comma-separated (default 64KiB,4MiB)
  --workers N           workers of the N-worker row, 2..256 (default: hardware threads, at least 2)
  --runs N              timed runs per task; the median is reported (default 5)
  --warmup N            untimed runs first (default 1)
  --clock C             auto | wall | cpu: what times single-threaded tasks (default auto: CPU time
                        when the load average exceeds the cores, else wall-clock; worker rows: wall)
  --peers               add the peers table (Python: rensa, datasketch, datatrove)
  --rounds N            the peers table's interleaved rounds, the median reported (default 3)
  --venv DIR            the peers' virtual environment (default .venv-bench in this folder)`,
  formats: { accepted: ['jsonl', 'json', 'csv'], unset: 'a table' },
  options: {
    sizes: { type: 'string' },
    workers: { type: 'string' },
    runs: { type: 'string' },
    warmup: { type: 'string' },
    clock: { type: 'string' },
    peers: { type: 'boolean' },
    rounds: { type: 'string' },
    venv: { type: 'string' },
  },
  async run(ctx) {
    const format = ctx.values.format === undefined ? undefined : enumFlag(ctx.values, 'format', 'jsonl', OUTPUT_FORMATS);
    const sizesText = stringOf(ctx.values, 'sizes');
    const sizes = sizesText?.split(',').map((s) => parseSize(s));
    const workers = intFlag(ctx.values, 'workers', Math.max(2, availableParallelism()), 2, 256);
    const runs = intFlag(ctx.values, 'runs', 5, 1, 1000);
    const warmup = intFlag(ctx.values, 'warmup', 1, 0, 100);
    const clock = enumFlag(ctx.values, 'clock', 'auto', ['auto', 'wall', 'cpu'] as const);
    const peers = ctx.values.peers === true;
    const rounds = intFlag(ctx.values, 'rounds', 3, 1, 100);
    const venv = stringOf(ctx.values, 'venv');
    const started = performance.now();
    const report = await runBench({
      files: ctx.positionals, sizes, workers, runs, warmup, clock, peers, rounds, venv,
      onLine: (line) => { if (ctx.progress) ctx.err.write(`\r\x1b[2K${line}`); },
      onTask: (task, i, n) => {
        if (ctx.progress) ctx.err.write(`\r\x1b[2K[${i + 1}/${n}] ${task.name} · ${task.input}`);
      },
    });
    if (ctx.progress) ctx.err.write('\r\x1b[2K');
    if (format === 'json') ctx.out.write(JSON.stringify(report, null, 2) + '\n');
    else if (format) writeRecords(ctx.out, format, report.rows);
    else ctx.out.write(formatReport(report));
    if (!ctx.quiet) ctx.err.write(`bench: ${report.rows.length} rows in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    return 0;
  },
};
