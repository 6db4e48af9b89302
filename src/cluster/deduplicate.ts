// `dedup`: the input without its near-duplicates, one page kept per cluster, as `resemble dedup`
// writes it: the kept records in input order (JSONL records as they were, other pages as
// {url, html | text, date?, ip?}) and the drop list. The input is read twice (the kept records are
// copied from it): pages of a one-shot iterable are first written to a temporary JSONL file.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { enumOption, optionError, throwIfAborted } from '../errors.js';
import type { ReadError } from '../graph/document.js';
import { readCrawl } from '../io/crawl.js';
import { PageSource } from '../io/pages.js';
import { round4 } from '../report/plain.js';
import { checkInput, takeInput, type CrawlInput, type EntryResult, type TakenInput } from '../stream/entry.js';
import { NEAR_DUPLICATE_DEFAULTS } from './defaults.js';
import { KEEP_RULES, keptRecords, pageRecord, planDedup, type DedupPlan, type KeepRule } from './dedup.js';
import { estimatePairs } from '../sketch/row-estimates.js';
import { resolveNearDuplicateRun, runNearDuplicates, type NearDuplicateRunOptions, type NearDuplicateSummary, type ThinPage } from './find.js';
import { inlinkCounts, type CrawlNearDuplicates } from './stream.js';

/** Options of `dedup`: those of findNearDuplicates, the keep rule, and where kept records go. */
export interface DedupOptions extends Omit<NearDuplicateRunOptions, 'representative'> {
  /** Which page of a cluster stays: 'first' (input order; default), 'longest', 'newest', 'most-linked'; ties by input order. */
  keep?: KeepRule;
  /**
   * Called with each kept record (and its JSON line, the input's own line for JSONL inputs) as it
   * is read back, in input order; `records` then stays empty, so that nothing of the pages is held.
   */
  onRecord?: (record: Record<string, unknown>, line: string) => void;
}

/** One entry of the drop list: the page dropped, the page kept in its place, how they are alike. */
export interface DropRecord {
  id: string;
  duplicates: string;
  kind: 'identical' | 'lexical' | 'shingle' | 'near';
  resemblance: number;
}

/** The counts of `resemble dedup`'s summary lines. */
export interface DedupSummary extends NearDuplicateSummary {
  kept: number;
  dropped: number;
  keep: KeepRule;
}

/** What `dedup` resolves to: the kept records in input order, the drop list, the summary and the pages with too little content. */
export interface Deduplicated extends EntryResult<Record<string, unknown>, DedupSummary> {
  dropped: DropRecord[];
  thin: ThinPage[];
}

const KNOWN = ['workers', 'read', 'onError', 'onWarning', 'signal', 'threshold', 'containment', 'commonCap', 'equivalence', 'method', 'prefix', 'prefixHits',
  'verify', 'exactBand', 'k', 'superShingle', 'sketch', 'templates', 'engine', 'engineOptions', 'batchBytes', 'spillDir', 'onProgress', 'keep', 'onRecord'];

/** Takes pages of a one-shot iterable; writes them to a temporary JSONL file (reporting the broken ones) and returns it as the input. */
async function spoolPages(source: PageSource, options: DedupOptions, onError: (e: ReadError) => void): Promise<TakenInput> {
  const dir = await mkdtemp(join(tmpdir(), 'resemble-pages-'));
  const release = () => rm(dir, { recursive: true, force: true });
  const path = join(dir, 'pages.jsonl');
  try {
    const out = createWriteStream(path);
    const { kind: _kind, ...read } = options.read ?? {};
    for await (const doc of readCrawl(source, { ...read, links: false, onError, ...(options.signal ? { signal: options.signal } : {}) })) {
      if (!out.write(JSON.stringify(pageRecord(doc)) + '\n')) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
  } catch (e) {
    await release();
    throw e;
  }
  return { inputs: path, names: [source.name], repeatable: true, release };
}

/** Takes the run and the plan; returns the drop list (equivalent copies, else the estimated resemblance to the page kept). */
function dropList(found: CrawlNearDuplicates, plan: DedupPlan): DropRecord[] {
  const { crawl, nd } = found;
  const set = crawl.set;
  const kindOf = (d: number, k: number): DropRecord['kind'] => set.rawFp[d] === set.rawFp[k] ? 'identical' : set.lexicalFp[d] === set.lexicalFp[k] ? 'lexical'
    : set.shingleFp[d] === set.shingleFp[k] && set.offsets[d + 1] > set.offsets[d] ? 'shingle' : 'near';
  const near: number[] = [];
  for (let d = 0; d < plan.keeper.length; d++) if (plan.keeper[d] >= 0 && kindOf(d, plan.keeper[d]) === 'near') near.push(d);
  // estimated together: rows on disk are read a set at a time
  const estimates = estimatePairs(nd.estimator(), Uint32Array.from(near), Uint32Array.from(near, (d) => plan.keeper[d])).resemblance;
  const out: DropRecord[] = [];
  let q = 0;
  for (let d = 0; d < plan.keeper.length; d++) {
    const k = plan.keeper[d];
    if (k < 0) continue;
    const kind = kindOf(d, k);
    out.push({ id: crawl.urls[d], duplicates: crawl.urls[k], kind, resemblance: kind === 'near' ? round4(estimates[q++]) : 1 });
  }
  return out;
}

/** Deduplicates a crawl: the records `resemble dedup` writes (one page kept per near-duplicate cluster, input order) and its drop list. */
export async function dedup(input: CrawlInput, options: DedupOptions = {}): Promise<Deduplicated> {
  checkInput(input, 'dedup');
  options ??= {};
  const keep = enumOption('keep', options.keep, NEAR_DUPLICATE_DEFAULTS.keep, KEEP_RULES);
  if (options.onRecord !== undefined && typeof options.onRecord !== 'function') throw optionError('onRecord', 'a function', options.onRecord);
  const { keep: _keep, onRecord, ...rest } = options;
  const representative = keep === 'newest' ? 'newest' : keep === 'most-linked' ? 'most-linked' : 'first';
  const run = resolveNearDuplicateRun({ ...rest, representative }, 'dedup', [...KNOWN, 'representative']);
  if (keep === 'most-linked') run.keepLinks = true;
  if (input === '-' || (typeof input === 'object' && 'paths' in input && !Array.isArray(input) && (input as { paths: readonly string[] }).paths.includes('-'))) {
    throw optionError('dedup input', 'files, folders, streams or pages: dedup reads its input twice, and standard input only once', '-');
  }
  let taken = await takeInput(input, options.signal);
  let spooled: TakenInput | undefined;
  const errors: ReadError[] = [];
  try {
    if (taken.inputs instanceof PageSource && !taken.repeatable) {
      spooled = taken = await spoolPages(taken.inputs, options, (e) => { errors.push(e); options.onError?.(e); });
    }
    const { found, summary, thin } = await runNearDuplicates(taken, run, rest);
    summary.errors += errors.length;
    try {
      const crawl = found.crawl;
      const plan = planDedup(found.nd.clusters, keep, {
        sizes: crawl.sizes, dates: crawl.dates, inlinks: keep === 'most-linked' ? inlinkCounts(crawl.urls, crawl.links ?? []) : undefined,
      });
      const records: Record<string, unknown>[] = [];
      for await (const line of keptRecords(taken.inputs, plan, crawl.sources, spooled ? {} : options.read ?? {})) {
        throwIfAborted(options.signal);
        const text = line.endsWith('\n') ? line.slice(0, -1) : line;
        if (onRecord) onRecord(JSON.parse(text) as Record<string, unknown>, text);
        else records.push(JSON.parse(text) as Record<string, unknown>);
      }
      const dropped = dropList(found, plan);
      return { records, dropped, thin, summary: { ...summary, kept: crawl.pages - plan.dropped, dropped: plan.dropped, keep } };
    } finally {
      found.close();
    }
  } finally {
    await taken.release();
    if (spooled && spooled !== taken) await spooled.release();
  }
}
