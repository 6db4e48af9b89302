// `queryIndex`: pages looked up in an index, as `resemble query` prints them (on-the-fly
// resemblance; with `cluster`, lost and found). A query is the key (URL) of a page in the index,
// or a page read from anything the readers take, sketched as the index sketched its own (on the
// worker pool, batch by batch: the same sketches as on this thread).
import { statSync } from 'node:fs';
import { ResembleError, enumOption, intOption, numberOption, optionError, rejectUnknown, throwIfAborted } from '../../errors.js';
import type { Document, ReadError } from '../../graph/document.js';
import { readCrawl, readSingleFile } from '../../io/crawl.js';
import { plain } from '../../report/plain.js';
import { checkEntryOptions, checkInput, readOptionsOf, takeInput, type CrawlInput, type EntryOptions, type EntryResult } from '../../stream/entry.js';
import { isInitialized, init } from '../../wasm/loader.js';
import { readIndexFile } from './file.js';
import type { QueryOptions } from './options.js';
import { ResembleIndex } from './resemble-index.js';
import { sketchForIndex, sketchForIndexOn } from './sketch-pages.js';
import { createPool, type Pool } from '../../stream/pool-node.js';
import { workerCount } from '../../stream/sketch-crawl.js';

/**
 * What `queryIndex` looks up: `{ queries }`, the command's QUERY arguments (each the key of a page
 * in the index, or a file, HTML or text, read as one page); a string is one such query. Any other
 * input the readers take (`{ paths }`, a stream, pages in memory) makes every page read a query,
 * named by its URL.
 */
export type QueryInput = CrawlInput | { readonly queries: readonly string[] };

/** Options of `queryIndex`: the flags of `resemble query`, each with its default. */
export interface QueryIndexOptions extends EntryOptions {
  /** Minimum resemblance, 0..1 (default: the index's threshold). */
  threshold?: number;
  /** Also list pages whose containment either way reaches this, 0..1 (default: the index's). */
  containment?: number;
  /** At most this many hits per query (default: all). */
  limit?: number;
  /** Ignore shingles found in more than this many pages (default: none ignored). */
  commonCap?: number;
  /** Lost and found: one record per key query, its cluster and the newest page in it, in place of hits (default false). */
  cluster?: boolean;
  /** The URL the query pages were fetched from: in content mode, the template the index holds for its site is left out (default: each page's own URL). */
  url?: string;
  /** The mode the queries are meant for: must be the index's (its own, the default), E_PARAMS otherwise. */
  content?: 'main' | 'page';
  /** Called after each query with the number answered so far. */
  onProgress?: (p: { queries: number; answered: number }) => void;
}

/** One hit of a query, as `resemble query` prints it: the query's rank-th best indexed page. */
export interface QueryHitRecord {
  query: string;
  rank: number;
  /** The indexed page's key (URL). */
  url: string | null;
  resemblance: number;
  /** How much of the query is in the page. */
  containment: number;
  /** How much of the page is in the query. */
  contains: number;
  shared: number;
  /** The page's cluster, numbered as `index clusters` and `dups` number them; -1 when it is in none. */
  cluster: number;
  /** The page's crawl date (ISO 8601), when known. */
  date?: string;
}

/** One key query with `cluster`, as `resemble query --cluster` prints it (lost and found). */
export interface ClusterQueryRecord {
  query: string;
  /** The cluster's number; -1 when the page is in none. */
  cluster: number;
  /** The keys of the cluster's pages (the page alone when in none). */
  urls: (string | null)[];
  /** The key of its newest page by crawl date. */
  newest: string | null;
}

/** The counts of a query run. */
export interface QuerySummary {
  /** Queries looked at, and answered (a key in the index, or a page that could be sketched). */
  queries: number;
  answered: number;
  /** Records returned. */
  hits: number;
  /** Queries and records that could not be used (reported through onError). */
  errors: number;
  /** Worker threads that sketched the query pages (1: this thread; key queries need none). */
  workers: number;
  /** Seconds the run took. */
  seconds: number;
}

/** What `queryIndex` resolves to: the records `resemble query` prints, in its order, and the counts. */
export type QueriedIndex = EntryResult<QueryHitRecord | ClusterQueryRecord, QuerySummary>;

const KNOWN = ['workers', 'read', 'onError', 'onWarning', 'signal', 'threshold', 'containment', 'limit', 'commonCap', 'cluster', 'url', 'content', 'onProgress'];
/** Pages of a crawl input sketched at a time. */
const BATCH = 64;

function isQueries(x: unknown): x is { readonly queries: readonly string[] } {
  return x !== null && typeof x === 'object' && 'queries' in (x as object) && !Array.isArray(x);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Looks URLs up in an index with `cluster`: one record per URL, its cluster and the newest page in it (lost and found), as `resemble query --cluster` prints them. */
export async function queryIndex(index: ResembleIndex | string, input: QueryInput, options: QueryIndexOptions & { cluster: true }): Promise<EntryResult<ClusterQueryRecord, QuerySummary>>;
/** Looks pages up in an index: for each query, the indexed pages resembling it, best first, as `resemble query` prints them. */
export async function queryIndex(index: ResembleIndex | string, input: QueryInput, options?: QueryIndexOptions & { cluster?: false }): Promise<EntryResult<QueryHitRecord, QuerySummary>>;
/**
 * Looks pages up in an index (a `ResembleIndex`, or the path of a saved one): for each query, the
 * indexed pages resembling it, best first, as `resemble query` prints them; with `cluster`, the
 * cluster of each key query and its newest page. A query that cannot be answered is reported
 * through `onError` and skipped; E_INPUT when none can be.
 */
export async function queryIndex(index: ResembleIndex | string, input: QueryInput, options?: QueryIndexOptions): Promise<QueriedIndex>;
export async function queryIndex(index: ResembleIndex | string, input: QueryInput, options?: QueryIndexOptions): Promise<QueriedIndex> {
  const o = (options ?? {}) as QueryIndexOptions;
  checkEntryOptions(o, 'queryIndex');
  rejectUnknown(o, KNOWN, 'queryIndex');
  const queries = typeof input === 'string' ? [input] : isQueries(input) ? input.queries : undefined;
  if (queries !== undefined) {
    if (!Array.isArray(queries) || queries.length === 0 || queries.some((q) => typeof q !== 'string' || q === '')) throw optionError('queryIndex input.queries', 'a non-empty array of keys or paths', queries);
  } else checkInput(input, 'queryIndex');
  if (!(index instanceof ResembleIndex) && (typeof index !== 'string' || index === '')) throw optionError('queryIndex index', 'a ResembleIndex or the path of a saved one', index);
  const q: QueryOptions = {};
  if (o.threshold !== undefined) q.threshold = numberOption('threshold', o.threshold, 0.5, 0, 1);
  if (o.containment !== undefined) q.containment = numberOption('containment', o.containment, 0, 0, 1);
  if (o.limit !== undefined) q.limit = intOption('limit', o.limit, 0, 1, 0x7fffffff);
  if (o.commonCap !== undefined) q.commonCap = intOption('commonCap', o.commonCap, 0, 1, 0x7fffffff);
  if (o.cluster !== undefined && typeof o.cluster !== 'boolean') throw optionError('cluster', 'boolean', o.cluster);
  const clusterMode = o.cluster === true;
  if (clusterMode && Object.keys(q).length > 0) throw optionError('cluster', 'no threshold, containment, limit or commonCap with it', true);
  if (o.url !== undefined && typeof o.url !== 'string') throw optionError('url', 'a URL', o.url);
  if (clusterMode && o.url !== undefined) throw optionError('url', 'no value with cluster', o.url);
  const mode = o.content === undefined ? undefined : enumOption('content', o.content, 'main', ['main', 'page'] as const);
  const where = typeof index === 'string' ? `index ${index}` : 'the index';
  const idx = typeof index === 'string' ? readIndexFile(index) : index;
  const indexMode = idx.params.content ?? 'page';
  if (mode !== undefined && mode !== indexMode) {
    throw new ResembleError('E_PARAMS', `${where} holds --content ${indexMode} sketches; a --content ${mode} query cannot be compared with them (rebuild the index with --content ${mode})`, { option: '--content' });
  }
  if (clusterMode && queries === undefined) throw optionError('cluster', 'key queries ({ queries })', 'pages');
  const workers = workerCount(o.workers);

  const started = performance.now();
  let errors = 0, asked = 0, answered = 0;
  const onError = (e: ReadError) => { errors++; o.onError?.(e); };
  const miss = (query: string, message: string) => onError({ source: query, location: query, code: 'E_INPUT', message });
  const records: (QueryHitRecord | ClusterQueryRecord)[] = [];
  const done = () => { throwIfAborted(o.signal); o.onProgress?.({ queries: asked, answered }); };
  const hitsOf = (query: string, hits: ReturnType<ResembleIndex['query']>) => {
    hits.forEach((h, rank) => records.push(plain({
      query, rank: rank + 1, url: h.key ?? null, resemblance: h.resemblance, containment: h.containment, contains: h.contains,
      shared: h.shared, cluster: h.cluster, date: h.date,
    }) as QueryHitRecord));
    answered++;
  };
  /** Sketches pages (named by `names`) as the index sketched its own and answers each. */
  // the pool starts with the first batch of more than one page to sketch (key queries need none)
  let pool: Pool | undefined;
  let used = 1;
  const pages = async (docs: Document[], names: readonly string[]) => {
    if (!isInitialized()) await init();
    if (!pool && workers > 1 && docs.length > 1) { pool = createPool({ workers }); used = workers; }
    const urls = docs.map(() => o.url);
    const set = pool ? await sketchForIndexOn(pool, docs, idx, urls) : sketchForIndex(docs, idx, urls);
    const failed = new Set<number>();
    for (const e of set.errors) { failed.add(e.index); onError({ source: docs[e.index].source ?? docs[e.index].url, location: docs[e.index].source ?? docs[e.index].url, code: 'E_INPUT', message: e.message }); }
    for (let i = 0; i < docs.length; i++) if (!failed.has(i)) hitsOf(names[i], idx.query(set.get(i), q));
  };

  try {
    if (queries !== undefined) {
      const read = readOptionsOf(o, onError);
      for (const query of queries) {
        asked++;
        const id = idx.docIds(query)[0];
        if (clusterMode) {
          if (id === undefined) miss(query, 'not a URL in the index');
          else {
            const c = idx.clusterOf(id);
            const members = c >= 0 ? Array.from(idx.clusters()[c], (d) => idx.key(d) ?? null) : [idx.key(id) ?? null];
            records.push({ query, cluster: c, urls: members, newest: idx.newestUrl(query) ?? null });
            answered++;
          }
        } else if (id !== undefined) hitsOf(query, idx.query(query, q));
        else if (!isFile(query)) miss(query, 'neither a URL in the index nor a readable file');
        else {
          let doc: Document | undefined;
          for await (const d of readSingleFile(query, { ...read, links: false })) doc = d;
          if (!doc) miss(query, 'not a readable text file');
          else await pages([doc], [query]);
        }
        done();
      }
    } else {
      const taken = await takeInput(input as CrawlInput, o.signal);
      try {
        let batch: Document[] = [];
        const flush = async () => { const b = batch; batch = []; asked += b.length; await pages(b, b.map((d) => d.url)); done(); };
        for await (const d of readCrawl(taken.inputs, { ...readOptionsOf(o, onError), links: false })) {
          batch.push(d);
          if (batch.length >= BATCH) await flush();
        }
        if (batch.length) await flush();
      } finally {
        await taken.release();
      }
    }
  } finally {
    await pool?.close();
  }
  if (answered === 0) throw new ResembleError('E_INPUT', 'no query could be answered');
  return { records, summary: { queries: asked, answered, hits: records.length, errors, workers: used, seconds: (performance.now() - started) / 1000 } };
}
