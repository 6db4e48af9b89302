// A deduplicated dataset: one page kept per near-duplicate cluster, chosen by a rule, and the
// input written back without the others, in input order, as a stream. JSONL inputs are copied line
// for line (every field of a kept record stays as it was); other inputs become JSONL records
// {url, html | text, date?, ip?}. The drop list names each dropped page and the page it duplicates.
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { enumOption } from '../errors.js';
import type { Clusters } from './clusters.js';
import { detectKind, readCrawl } from '../io/crawl.js';
import type { ReadOptions } from '../io/options.js';
import { PageSource, type Inputs } from '../io/pages.js';
import type { Document } from '../graph/document.js';

/** Which page of a cluster is kept. */
export type KeepRule = 'first' | 'longest' | 'newest' | 'most-linked';
/** Every keep rule, for validation and help. */
export const KEEP_RULES: readonly KeepRule[] = ['first', 'longest', 'newest', 'most-linked'];

/** Per DocId: whether it is kept, and the kept page it duplicates (-1 when kept). */
export interface DedupPlan {
  keep: Uint8Array;
  keeper: Int32Array;
  dropped: number;
}

/** Per-document columns a rule may read. */
export interface KeepColumns {
  /** Page sizes in bytes (longest). */
  sizes?: ArrayLike<number>;
  /** Fetch dates, ms since 1970, NaN when unknown (newest). */
  dates?: ArrayLike<number>;
  /** In-link counts (most-linked). */
  inlinks?: ArrayLike<number>;
}

/**
 * Takes clusters, a keep rule and the columns it needs; returns which pages stay: in every cluster
 * the best page by the rule (ties, and unknown dates, by input order), every page outside clusters.
 */
export function planDedup(clusters: Clusters, rule: KeepRule, columns: KeepColumns = {}): DedupPlan {
  enumOption('keep', rule, 'first', KEEP_RULES);
  const n = clusters.documents;
  const col = rule === 'longest' ? columns.sizes : rule === 'newest' ? columns.dates : rule === 'most-linked' ? columns.inlinks : undefined;
  if (rule !== 'first' && (!col || col.length !== n)) throw new TypeError(`planDedup: rule ${rule} needs one value per document`);
  // Higher is better; NaN (an unknown date) loses to any known value.
  const score = (d: number) => { const v = Number(col![d]); return Number.isNaN(v) ? -Infinity : v; };
  const keep = new Uint8Array(n).fill(1);
  const keeper = new Int32Array(n).fill(-1);
  let dropped = 0;
  for (let c = 0; c < clusters.count; c++) {
    const m = clusters.membersOf(c);
    let best = m[0];
    for (const d of m) {
      if (rule === 'first') { if (d < best) best = d; continue; }
      const sd = score(d), sb = score(best);
      if (sd > sb || (sd === sb && d < best)) best = d;
    }
    for (const d of m) if (d !== best) { keep[d] = 0; keeper[d] = best; dropped++; }
  }
  return { keep, keeper, dropped };
}

/** Takes a text file (gunzipped when it ends in .gz); yields its lines as bytes (without the line break) with 1-based numbers, as readLines numbers them. */
export async function* rawLines(path: string): AsyncGenerator<{ line: Buffer; number: number }> {
  const file = createReadStream(path, { highWaterMark: 1 << 20 });
  let input: Readable = file;
  if (/\.gz$/i.test(path)) {
    const gunzip = createGunzip();
    file.on('error', (e) => gunzip.destroy(e));
    input = file.pipe(gunzip);
  }
  let rest: Buffer | undefined, number = 0;
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
      let from = 0, at: number;
      while ((at = buf.indexOf(10, from)) >= 0) {
        const end = at > from && buf[at - 1] === 13 ? at - 1 : at;
        yield { line: buf.subarray(from, end), number: ++number };
        from = at + 1;
      }
      rest = from < buf.length ? Buffer.from(buf.subarray(from)) : undefined;
    }
    if (rest && rest.length) yield { line: rest[rest.length - 1] === 13 ? rest.subarray(0, -1) : rest, number: ++number };
  } finally {
    file.destroy();
  }
}

/**
 * Takes the inputs (as given to the first pass, in order), the plan, and each DocId's source;
 * yields the kept records as JSONL lines (with their line break), in input order.
 */
export async function* keptRecords(inputs: Inputs, plan: DedupPlan, sources: readonly string[], read: ReadOptions = {}): AsyncGenerator<string> {
  const quiet = { ...read, links: false, onBytes: undefined, onError: undefined, onSkip: undefined, onWarning: undefined };
  let next = 0;
  for (const input of inputs instanceof PageSource || typeof inputs === 'string' ? [inputs] : inputs) {
    const kind = input instanceof PageSource ? undefined : read.kind ?? (await detectKind(input));
    if (kind === 'jsonl' && typeof input === 'string') {
      // DocIds of this file's records, by line: the first pass numbered them in this order.
      const ids = new Map<number, number>();
      const prefix = `${input}:`;
      for (; next < sources.length && sources[next].startsWith(prefix); next++) ids.set(Number(sources[next].slice(prefix.length)), next);
      for await (const { line, number } of rawLines(input)) {
        const d = ids.get(number);
        if (d !== undefined && plan.keep[d]) yield line.toString('utf8') + '\n';
      }
      continue;
    }
    for await (const doc of readCrawl(input, quiet)) {
      const d = next++;
      if (d >= plan.keep.length || !plan.keep[d]) continue;
      yield JSON.stringify(pageRecord(doc)) + '\n';
    }
  }
}

/** Takes a document; returns it as a JSONL record {url, html | text, date?, ip?} (what dedup writes for pages of inputs other than JSONL). */
export function pageRecord(doc: Document): Record<string, string> {
  const body = new TextDecoder(doc.charset ?? 'utf-8').decode(doc.bytes);
  const record: Record<string, string> = { url: doc.url };
  record[doc.contentType === 'text/html' ? 'html' : 'text'] = body;
  if (doc.date !== undefined) record.date = doc.date;
  if (doc.ip !== undefined) record.ip = doc.ip;
  return record;
}
