/** Loading crawls for subcommands: progress, read errors on stderr, the summary line, and "nothing usable" as an error. */
import { writeFileSync } from 'node:fs';
import { ResembleError } from '../errors.js';
import { phenomenaRecords, phenomenaSummary, type PhenomenaReport } from '../io/crawl-phenomena.js';
import type { ReadError } from '../graph/document.js';
import { inputSize, loadCrawl, type LoadedCrawl, type LoadOptions } from '../io/crawl.js';
import type { ReadOptions } from '../io/options.js';
import { enumFlag, intFlag, readerOptionsOf, stringOf } from './args.js';
import type { CommandContext } from './command.js';
import { count, startProgress, summaryLine } from './progress.js';
import { parseMemory, type EngineOptions } from '../scale/duckdb.js';
import { parseSparkConf, resolveSpark, type SparkOptions } from '../scale/spark.js';

/** Options of `openCrawl`: the reader options a command may set, plus how to treat an empty result. */
export interface OpenCrawlOptions extends Pick<LoadOptions, 'links' | 'scheme' | 'allStatuses' | 'kind' | 'maxRecordBytes'> {
  /** Return an empty crawl instead of failing with E_INPUT (exit 1). Default false. */
  allowEmpty?: boolean;
  /** Label before the progress bar. Default 'reading'. */
  label?: string;
}

// A broken crawl can report thousands of records; the first ones say what is wrong, the summary counts the rest.
const MAX_ERRORS_SHOWN = 50;

/** Takes a read error; returns its stderr line: `file.warc.gz offset 1234: truncated record (E_INPUT)`. */
export function errorLine(e: ReadError): string {
  // Folder readers give the file's full path as location: it says everything the source would.
  const where = !e.location || e.location === e.source ? e.source : e.location.startsWith(e.source) ? e.location : `${e.source} ${e.location}`;
  return `${where}: ${e.message} (${e.code})`;
}

/** Takes the command context; returns an onError for the readers that prints the first read errors on stderr (unless --quiet) and counts the rest. */
export function errorPrinter(ctx: CommandContext): (e: ReadError) => void {
  let shown = 0;
  // With a bar on the terminal, clear its line first; the bar redraws below the error.
  const lead = ctx.progress ? '\r\x1b[K' : '';
  return (e) => {
    if (ctx.quiet) return;
    if (shown < MAX_ERRORS_SHOWN) ctx.err.write(lead + errorLine(e) + '\n');
    else if (shown === MAX_ERRORS_SHOWN) ctx.err.write(lead + '(further read errors not shown; see the count below)\n');
    shown++;
  };
}

/** Takes the command context; returns the reader options of a streaming command: the input flags, and read errors, warnings and surprising skips printed as openCrawl prints them. */
export function readOptionsFor(ctx: CommandContext): ReadOptions {
  const show = errorPrinter(ctx);
  return {
    ...readerOptionsOf(ctx.values),
    onError: show,
    onWarning: show,
    onSkip: (s) => {
      if (s.message !== undefined) show({ source: s.source, location: s.location, code: s.reason, message: s.message });
    },
  };
}

/** Takes the command context; returns the reader options of an entry point's call: the input flags, and read errors, warnings and surprising skips printed as openCrawl prints them. */
export function cliReadOptions(ctx: CommandContext): { read: ReadOptions; onError: (e: ReadError) => void; onWarning: (e: ReadError) => void } {
  const show = errorPrinter(ctx);
  return {
    read: {
      ...readerOptionsOf(ctx.values),
      onSkip: (s) => { if (s.message !== undefined) show({ source: s.source, location: s.location, code: s.reason, message: s.message }); },
    },
    onError: show,
    onWarning: show,
  };
}

/** Takes the command context and inputs; throws E_OPTION when there is none. */
export function requireInputs(inputs: readonly string[]): void {
  if (inputs.length === 0) {
    throw new ResembleError('E_OPTION', 'expected at least one input: a wget mirror folder, .warc[.gz] (.arc, .wacz), .jsonl[.gz] or URL list');
  }
}

/** A progress display for a streaming command: the read/sketch bar, then one line per later stage. */
export async function startPipelineProgress(ctx: CommandContext, inputs: readonly string[], label = 'reading'): Promise<{
  read(state: { read: number; sketched: number; bytes: number }): void;
  stage(name: string, text: string | (() => string)): void;
  stop(): void;
}> {
  const progress = startProgress(ctx, label, ctx.progress ? await inputSize(inputs) : undefined);
  progress.update({ documents: 0, bytes: 0, sketched: 0 });
  return {
    read: (p) => progress.update({ documents: p.read, bytes: p.bytes, sketched: p.sketched }),
    stage: (name, text) => progress.stage(name, text),
    stop: () => progress.stop(),
  };
}

/** Takes the totals of a streaming read; throws E_INPUT when nothing usable was read. */
export function requireDocuments(documents: number, errors: number, inputs: readonly string[]): void {
  if (documents === 0) throw new ResembleError('E_INPUT', `nothing usable was read from ${inputs.join(', ')}`, { errors });
}

/**
 * Takes the command context and input paths; returns the whole crawl in memory (documents, graph,
 * errors, skip counts). Draws progress when ctx.progress, prints read errors (unless --quiet) and the
 * summary line on stderr. Throws E_OPTION when no input is given and E_INPUT when nothing usable was read.
 */
export async function openCrawl(ctx: CommandContext, inputs: readonly string[], options: OpenCrawlOptions = {}): Promise<LoadedCrawl> {
  requireInputs(inputs);
  const { allowEmpty = false, label = 'reading', ...commandOptions } = options;
  // The input flags (--max-record, --input-format, ...) first; what the command needs (links) wins.
  const readerOptions = { ...readerOptionsOf(ctx.values), ...commandOptions };
  const started = Date.now();
  const progress = startProgress(ctx, label, ctx.progress ? await inputSize(inputs) : undefined);
  const show = errorPrinter(ctx);
  let documents = 0;
  let bytes = 0;
  let crawl: LoadedCrawl;
  try {
    crawl = await loadCrawl(inputs, {
      ...readerOptions,
      onError: show,
      onWarning: show,
      // Skips that would surprise (a link out of the folder, a file: URL) carry a message: shown like errors.
      onSkip: (s) => {
        if (s.message !== undefined) show({ source: s.source, location: s.location, code: s.reason, message: s.message });
      },
      onBytes: (n) => {
        bytes += n;
        progress.update({ documents, bytes });
      },
      onDocument: (_doc, id) => {
        documents = id + 1;
      },
    });
    documents = crawl.documents.length;
  } finally {
    progress.stop();
  }
  if (!ctx.quiet) {
    ctx.err.write(summaryLine({ documents, bytes: crawl.bytes, errors: crawl.errors.length, skipped: crawl.skipped, seconds: (Date.now() - started) / 1000 }) + '\n');
  }
  if (!allowEmpty) requireDocuments(documents, crawl.errors.length, inputs);
  return crawl;
}

/** Flags of the streaming commands: worker threads and the engine. */
export const PIPELINE_FLAGS = {
  workers: { type: 'string' },
  engine: { type: 'string' },
  'memory-limit': { type: 'string' },
  'temp-dir': { type: 'string' },
  master: { type: 'string' },
  'spark-conf': { type: 'string', multiple: true },
} as const;

/** Help text of the Spark flags (commands whose candidate step runs on Spark). */
export const SPARK_USAGE = `  --master URL          spark: the Spark master (default local[*]): local-cluster[N,C,MB], spark://host:port,
                        yarn, k8s://https://host:port; the driver runs here (client mode), finds
                        spark-submit through SPARK_HOME or an installed pyspark, and needs Java 17+
  --spark-conf K=V      spark: a Spark setting, as spark-submit's --conf (repeat for more); with a
                        cluster, --temp-dir must be a folder the executors see (shared storage)`;

/**
 * Takes the lines saying what --engine duckdb does in a command (the first after "memory (default)
 * | duckdb: ") and what --workers sketches; returns the help text of PIPELINE_FLAGS for it.
 */
export function pipelineUsage(engine: string[] = [
  'the candidate step as SQL on embedded DuckDB',
  'under --memory-limit, spilling to --temp-dir (needs @duckdb/node-api); with',
  'method pairs the sketches wait on disk, not in memory: the same clusters,',
  'slower, for crawls whose sketches or pairs do not fit in memory',
], workers = 'threads that sketch while the input is read', spark?: string[]): string {
  const pad = ' '.repeat(24);
  return `  --workers N           ${workers} (default: the available cores);
${pad}the output is the same for any N; 1 sketches on the main thread
  --engine E            memory (default) | duckdb${spark ? ` | spark\n${pad}duckdb` : ''}: ${engine[0]}
${engine.slice(1).map((l) => pad + l).join('\n')}${spark ? '\n' + spark.map((l, i) => pad + (i === 0 ? 'spark: ' : '') + l).join('\n') : ''}
  --memory-limit SIZE   duckdb: the engine's memory limit, e.g. 2GB (default 1GB)
  --temp-dir DIR        duckdb: folder for its database and spill files (default: the system temp folder)${spark ? `
${pad}spark: folder of the files exchanged with Spark (the pages' keys, the pairs)
${SPARK_USAGE}` : ''}`;
}

/** What --engine spark does in dups and dedup. */
const SPARK_DUPS = [
  'the same, with the candidate step (the cap, pairs and pairs-short',
  'templates of sql/, as `plan --dialect spark` renders them) as Spark SQL',
];

/** Help text for PIPELINE_FLAGS in dups and dedup. */
export const PIPELINE_USAGE = pipelineUsage(undefined, undefined, SPARK_DUPS);

/** Engines a command can run its candidate step on. */
export type EngineName = 'memory' | 'duckdb' | 'spark';

/**
 * Takes parsed values and the engines the command has; returns the worker count, the engine and
 * its options (engine flags without their engine are rejected).
 */
export function pipelineOf(values: CommandContext['values'], engines: readonly EngineName[] = ['memory', 'duckdb']): { workers?: number; engine: EngineName; engineOptions: EngineOptions & SparkOptions } {
  const workers = values.workers === undefined ? undefined : intFlag(values, 'workers', 1, 1, 256);
  const engine = enumFlag(values, 'engine', 'memory', engines);
  const engineOptions: EngineOptions & SparkOptions = {};
  const memoryLimit = stringOf(values, 'memory-limit'), tempDir = stringOf(values, 'temp-dir'), master = stringOf(values, 'master');
  const conf = values['spark-conf'] as string[] | undefined;
  const need = (flag: string, what: EngineName[]) => {
    if (!what.includes(engine)) throw new ResembleError('E_OPTION', `expected --engine ${what.join(' or ')} with ${flag}`, { option: flag });
  };
  if (memoryLimit !== undefined) { need('--memory-limit', ['duckdb']); parseMemory('--memory-limit', memoryLimit); engineOptions.memoryLimit = memoryLimit; }
  if (tempDir !== undefined) { need('--temp-dir', engines.includes('spark') ? ['duckdb', 'spark'] : ['duckdb']); engineOptions.tempDir = tempDir; }
  if (master !== undefined) { need('--master', ['spark']); engineOptions.master = master; }
  if (conf !== undefined) { need('--spark-conf', ['spark']); engineOptions.sparkConf = parseSparkConf(conf); }
  if (engine === 'spark') resolveSpark(engineOptions);
  return { workers, engine, engineOptions };
}

/** Takes bytes and seconds; returns `718 MB in 6.1 s (118 MB/s)`. */
export function rateText(bytes: number, seconds: number): string {
  const mb = bytes / (1024 * 1024);
  return `${mb.toFixed(mb < 10 ? 1 : 0)} MB in ${seconds.toFixed(1)} s (${seconds > 0 ? (mb / seconds).toFixed(0) : '–'} MB/s)`;
}

/** Takes the reader totals of a streaming command; returns its read summary line: `read 1,200 pages (3.4 MB); 2 errors; 3 skipped (binary 3)`. */
export function readSummary(totals: { urls: readonly string[]; bytes: number; errors: readonly unknown[]; skipped: Record<string, number> }): string {
  const n = totals.urls.length;
  return summaryLine({ documents: n, bytes: totals.bytes, errors: totals.errors.length, skipped: totals.skipped, seconds: 0 })
    .replace(/^read \d+ documents? (\([\d.]+ MB\)) in [\d.]+ s/, `read ${count(n)} page${n === 1 ? '' : 's'} $1`);
}

/** The flag of the commands that read a web crawl's phenomena (mirrors, collections). */
export const PHENOMENA_FLAGS = { phenomena: { type: 'string' } } as const;

/** Help text of PHENOMENA_FLAGS. */
export const PHENOMENA_USAGE = `  --phenomena FILE      also write what the web crawl holds besides its pages, one JSON line each:
                        URL variants joined to their page (with the rule), soft-404 pages and hosts,
                        host aliases, redirects, records that are not pages (docs/crawls.md)`;

/** Takes the command context and a crawl's phenomena; prints their summary on stderr (unless --quiet) and writes them to --phenomena FILE. */
export function reportPhenomena(ctx: CommandContext, report: PhenomenaReport | undefined): void {
  if (!report) return;
  const line = phenomenaSummary(report);
  if (line && !ctx.quiet) ctx.err.write(line + '\n');
  const file = stringOf(ctx.values, 'phenomena');
  if (file === undefined) return;
  try {
    writeFileSync(file, phenomenaRecords(report).map((l) => l + '\n').join(''));
  } catch (e) {
    throw new ResembleError('E_IO', `cannot write the phenomena file ${file}: ${(e as Error).message}`, { path: file });
  }
}
