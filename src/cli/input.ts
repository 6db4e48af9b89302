/** Loading crawls for subcommands: progress, read errors on stderr, the summary line, and "nothing usable" as an error. */
import { ResembleError } from '../errors.js';
import type { ReadError } from '../graph/document.js';
import { inputSize, loadCrawl, type LoadedCrawl, type LoadOptions } from '../io/crawl.js';
import { readerOptionsOf } from './args.js';
import type { CommandContext } from './command.js';
import { startProgress, summaryLine } from './progress.js';

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

/**
 * Takes the command context and input paths; returns the whole crawl in memory (documents, graph,
 * errors, skip counts). Draws progress when ctx.progress, prints read errors (unless --quiet) and the
 * summary line on stderr. Throws E_OPTION when no input is given and E_INPUT when nothing usable was read.
 */
export async function openCrawl(ctx: CommandContext, inputs: readonly string[], options: OpenCrawlOptions = {}): Promise<LoadedCrawl> {
  if (inputs.length === 0) {
    throw new ResembleError('E_OPTION', 'expected at least one input: a wget mirror folder, .warc[.gz], .jsonl[.gz] or URL list');
  }
  const { allowEmpty = false, label = 'reading', ...commandOptions } = options;
  // The input flags (--max-record, --input-format, ...) first; what the command needs (links) wins.
  const readerOptions = { ...readerOptionsOf(ctx.values), ...commandOptions };
  const started = Date.now();
  const progress = startProgress(ctx, label, ctx.progress ? await inputSize(inputs) : undefined);
  let shown = 0;
  // With a bar on the terminal, clear its line first; the bar redraws below the error.
  const lead = ctx.progress ? '\r\x1b[K' : '';
  let documents = 0;
  let bytes = 0;
  let crawl: LoadedCrawl;
  const show = (e: ReadError) => {
    if (ctx.quiet) return;
    if (shown < MAX_ERRORS_SHOWN) ctx.err.write(lead + errorLine(e) + '\n');
    else if (shown === MAX_ERRORS_SHOWN) ctx.err.write(lead + '(further read errors not shown; see the count below)\n');
    shown++;
  };
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
  if (documents === 0 && !allowEmpty) {
    throw new ResembleError('E_INPUT', `nothing usable was read from ${inputs.join(', ')}`, { errors: crawl.errors.length });
  }
  return crawl;
}
