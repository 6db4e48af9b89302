// The map side as Parquet shards, for a fleet of Node processes near the data: each process reads
// the crawl, sketches the pages of its hosts (a host's pages all go to one shard, so each site's
// template is learnt from its own pages, as in a single run) and writes them with their DocIds in
// the whole crawl (read positions), so the shards' rows together are a single run's rows. A shard
// is a folder `shard-I-of-N` with the contract's keys, sizes, pages and documents tables and a
// manifest, `shard.json`, written last: the folder is written under a hidden name and renamed into
// place when complete. The reduce side (from-parquet.ts) checks a shard set before it starts: every
// shard there once, of one contract version and one set of options.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResembleError, intOption, optionError } from '../errors.js';
import { hostOfUrl } from '../graph/url.js';
import type { ReadOptions } from '../io/options.js';
import { sketchCrawl, type CrawlSketch, type StreamProgress } from '../stream/sketch-crawl.js';
import { resolveSketchOptions, type SketchOptions, type SketchParams } from '../sketch/options.js';
import type { LearnerOptions } from '../template/learner.js';
import { CONTRACT_VERSION, type TableName } from './contract.js';
import { openParquetFile } from './parquet-file.js';
import { readParquetFooter } from './parquet-read.js';
import { documentRows, keyRows, pageRows, sizeRows } from './rows.js';

/** Version of the shard manifest's layout. */
export const SHARD_FORMAT = 1;
/** The tables of a shard, each in `<table>.parquet`. */
export const SHARD_TABLES: readonly TableName[] = ['keys', 'sizes', 'pages', 'documents'];

/** One shard of N: index 1..N. */
export interface ShardId {
  index: number;
  count: number;
}

/** What `shard.json` says of a shard. */
export interface ShardManifest {
  format: 'resemble-parquet-shard';
  version: number;
  /** The Parquet contract version of its tables. */
  contract: number;
  shard: ShardId;
  /** How pages were split into shards. */
  split: 'host';
  /** The options the sketches depend on: shards of one set have the same. */
  options: { sketch: Record<string, unknown>; templates: LearnerOptions | null; read: Record<string, unknown> };
  /** Pages read in the whole crawl (every shard's DocIds are below this). */
  pages: number;
  /** Pages of this shard, and their key rows. */
  documents: number;
  keys: number;
}

/** Takes a host and a shard count; returns the shard (1..count) its pages go to (FNV-1a of the host). */
export function shardOfHost(host: string, count: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < host.length; i++) h = Math.imul(h ^ host.charCodeAt(i), 0x01000193);
  return ((h >>> 0) % count) + 1;
}

/** Takes `I/N` (1 ≤ I ≤ N); returns the shard, or throws E_OPTION. */
export function parseShard(text: string, name = '--shard'): ShardId {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN, count = m ? Number(m[2]) : NaN;
  if (!m || !(count >= 1 && count <= 65536 && index >= 1 && index <= count)) throw optionError(name, 'I/N with 1 ≤ I ≤ N ≤ 65536 (shard I of N)', text);
  return { index, count };
}

/** Takes a shard; returns its folder name. */
export function shardFolder(s: ShardId): string {
  return `shard-${s.index}-of-${s.count}`;
}

/** Options of `sketchToParquet`. */
export interface ParquetShardOptions {
  /** Sketch options (default: the library's; min or mod kinds). */
  sketch?: SketchOptions;
  /** content 'main': how each site's template is learnt (see sketchCrawl). */
  templates?: LearnerOptions;
  /** Which shard to write (default 1/1: every page, written straight into the folder). */
  shard?: ShardId;
  workers?: number;
  read?: ReadOptions;
  /** Called as the crawl is read and sketched. */
  onProgress?: (p: StreamProgress) => void;
}

/** What `sketchToParquet` returns: where the shard is, its manifest, and the crawl's reading totals. */
export interface ParquetShardResult {
  path: string;
  manifest: ShardManifest;
  crawl: CrawlSketch;
}

/** The read options that decide which records are pages, and so the DocIds: shards of one set read alike. */
function readOptionsOf(read: ReadOptions | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(read ?? {})) if (typeof v !== 'function' && v !== undefined) out[k] = v;
  delete out.links;
  return out;
}

/** Takes sketch parameters; returns them as JSON values (the seed as a decimal string). */
export function paramsJson(params: SketchParams): Record<string, unknown> {
  return { ...params, seed: String(params.seed) };
}

/**
 * Takes input path(s), a folder and options; reads the crawl, sketches the pages of the shard's
 * hosts and writes the shard: `DIR/shard-I-of-N/` (or, for 1/1 without `shard`, DIR itself) with
 * keys, sizes, pages and documents as Parquet and `shard.json`. Throws E_IO when that shard is in
 * DIR already (remove it to write it again).
 */
export async function sketchToParquet(input: string | readonly string[], dir: string, options: ParquetShardOptions = {}): Promise<ParquetShardResult> {
  const params = resolveSketchOptions(options.sketch ?? {});
  if (params.kind === 'adaptive') throw optionError('sketch.kind', 'min or mod for Parquet (the SQL estimates MIN_s and MOD_m sketches)', params.kind);
  const shard = options.shard ?? { index: 1, count: 1 };
  intOption('shard.count', shard.count, 1, 1, 65536);
  intOption('shard.index', shard.index, 1, 1, shard.count);
  const flat = options.shard === undefined;
  const final = flat ? dir : join(dir, shardFolder(shard));
  if (!flat && existsSync(final)) throw new ResembleError('E_IO', `shard ${shard.index}/${shard.count} is in ${dir} already (${final}): remove it to write it again`, { path: final });
  let temp: string;
  try {
    mkdirSync(dir, { recursive: true });
    temp = mkdtempSync(join(dir, `.${shardFolder(shard)}.partial-`));
  } catch (e) {
    throw new ResembleError('E_IO', `cannot write in ${dir}: ${(e as Error).message}`, { path: dir });
  }
  try {
    const meta = { metadata: { 'resemble.sketch': JSON.stringify(paramsJson(params)) } };
    const sinks = { keys: openParquetFile(join(temp, 'keys.parquet'), 'keys', meta), sizes: openParquetFile(join(temp, 'sizes.parquet'), 'sizes', meta), pages: openParquetFile(join(temp, 'pages.parquet'), 'pages', meta) };
    const own: number[] = [];
    const crawl = await sketchCrawl(input, {
      sketch: options.sketch ?? {}, workers: options.workers, read: options.read, retain: false,
      ...(params.content === 'main' && options.templates ? { templates: options.templates } : {}),
      ...(shard.count > 1 ? { keep: (url: string) => shardOfHost(hostOfUrl(url), shard.count) === shard.index } : {}),
      onProgress: options.onProgress,
      onRows: (set, ids) => {
        sinks.keys.write(keyRows(set, { ids })); sinks.sizes.write(sizeRows(set, { ids })); sinks.pages.write(pageRows(set, { ids }));
        for (const id of ids) own.push(id);
      },
    });
    own.sort((a, b) => a - b);
    const documents = openParquetFile(join(temp, 'documents.parquet'), 'documents', meta);
    const urls = crawl.urls, dates = crawl.dates;
    documents.write(documentRows(own.map((d) => ({ url: urls[d], date: Number.isNaN(dates[d]) ? undefined : new Date(dates[d]).toISOString() })), { ids: own }));
    for (const s of [...Object.values(sinks), documents]) s.finish();
    const manifest: ShardManifest = {
      format: 'resemble-parquet-shard', version: SHARD_FORMAT, contract: CONTRACT_VERSION, shard, split: 'host',
      options: { sketch: paramsJson(params), templates: params.content === 'main' ? options.templates ?? {} : null, read: readOptionsOf(options.read) },
      pages: crawl.pages, documents: own.length, keys: sinks.keys.rows,
    };
    writeFileSync(join(temp, 'shard.json'), JSON.stringify(manifest, null, 2) + '\n');
    if (flat) {
      // the manifest last: a folder without it is no shard
      for (const t of SHARD_TABLES) renameSync(join(temp, `${t}.parquet`), join(dir, `${t}.parquet`));
      renameSync(join(temp, 'shard.json'), join(dir, 'shard.json'));
      rmSync(temp, { recursive: true, force: true });
    } else renameSync(temp, final);
    return { path: final, manifest, crawl };
  } catch (e) {
    rmSync(temp, { recursive: true, force: true });
    if (e instanceof ResembleError) throw e;
    throw new ResembleError('E_IO', `cannot write shard ${shard.index}/${shard.count} in ${dir}: ${(e as Error).message}`, { path: dir });
  }
}

/** A shard found in a folder. */
export interface FoundShard {
  path: string;
  manifest: ShardManifest;
}

/** A checked set of shards: all of them, one options set, every page in one. */
export interface ShardSet {
  shards: FoundShard[];
  pages: number;
  params: SketchParams;
  templates: LearnerOptions | null;
}

function readManifest(path: string): ShardManifest {
  let m: ShardManifest;
  try {
    m = JSON.parse(readFileSync(join(path, 'shard.json'), 'utf8'));
  } catch (e) {
    throw new ResembleError('E_FORMAT', `${path}/shard.json cannot be read: ${(e as Error).message}`, { path });
  }
  if (m?.format !== 'resemble-parquet-shard') throw new ResembleError('E_FORMAT', `${path}/shard.json is not a resemble shard manifest`, { path });
  if (m.version !== SHARD_FORMAT || m.contract !== CONTRACT_VERSION) {
    throw new ResembleError('E_PARAMS', `${path} is a shard of format version ${m.version}, contract version ${m.contract}; this version reads format ${SHARD_FORMAT}, contract ${CONTRACT_VERSION}: sketch it again with this version`, { path, version: m.version, contract: m.contract });
  }
  return m;
}

/** Takes two option objects; returns the first key path where they differ, or undefined. */
function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b ? undefined : at || '(value)';
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const k of keys) {
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], at ? `${at}.${k}` : k);
    if (d) return d;
  }
  return undefined;
}

/**
 * Takes a folder of shards (`shard-I-of-N/` folders, or one shard's files); returns the checked
 * set. Throws, naming the shard: E_INPUT for a shard missing or there twice, or tables that do not
 * match their manifest; E_PARAMS for shards of other options, counts or format versions.
 */
export async function readShardSet(dir: string): Promise<ShardSet> {
  let paths: string[];
  if (existsSync(join(dir, 'shard.json'))) paths = [dir];
  else {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (e) {
      throw new ResembleError('E_IO', `cannot read the shard folder ${dir}: ${(e as Error).message}`, { path: dir });
    }
    paths = names.filter((n) => !n.startsWith('.') && statSync(join(dir, n)).isDirectory() && existsSync(join(dir, n, 'shard.json'))).map((n) => join(dir, n));
    if (paths.length === 0) throw new ResembleError('E_INPUT', `${dir} holds no shard (no shard.json in it or in a folder of it): write them with resemble sketch --parquet`, { path: dir });
  }
  const shards = paths.map((path) => ({ path, manifest: readManifest(path) }));
  // the options most shards were written with are the set's: a shard with others is the one named
  const byOptions = new Map<string, FoundShard[]>();
  for (const s of shards) {
    const k = JSON.stringify(s.manifest.options, (_k, v) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v));
    byOptions.set(k, [...(byOptions.get(k) ?? []), s]);
  }
  const first = [...byOptions.values()].sort((a, b) => b.length - a.length)[0][0];
  const count = first.manifest.shard.count;
  const seen = new Map<number, string>();
  for (const s of shards) {
    const m = s.manifest;
    if (m.shard.count !== count) throw new ResembleError('E_PARAMS', `${s.path} is shard ${m.shard.index} of ${m.shard.count}, ${first.path} one of ${count}: shards of two splits`, { path: s.path });
    const diff = firstDifference(m.options, first.manifest.options);
    if (diff) throw new ResembleError('E_PARAMS', `${s.path} was written with other options than ${first.path} (${diff}): shards of one set take the same sketch, content and reading options`, { path: s.path, option: diff });
    if (m.pages !== first.manifest.pages) throw new ResembleError('E_INPUT', `${s.path} read ${m.pages} pages, ${first.path} ${first.manifest.pages}: shards of two crawls`, { path: s.path });
    const other = seen.get(m.shard.index);
    if (other !== undefined) throw new ResembleError('E_INPUT', `shard ${m.shard.index}/${count} is there twice: ${other} and ${s.path}`, { path: s.path, shard: m.shard.index });
    seen.set(m.shard.index, s.path);
  }
  for (let i = 1; i <= count; i++) {
    if (!seen.has(i)) throw new ResembleError('E_INPUT', `shard ${i}/${count} is missing from ${dir} (expected ${join(dir, shardFolder({ index: i, count }))})`, { path: dir, shard: i });
  }
  let documents = 0;
  for (const s of shards) {
    documents += s.manifest.documents;
    for (const t of SHARD_TABLES) {
      const file = join(s.path, `${t}.parquet`);
      if (!existsSync(file)) throw new ResembleError('E_INPUT', `${s.path} has no ${t}.parquet`, { path: s.path });
      const f = await readParquetFooter(file);
      if (f.metadata['resemble.table'] !== t || f.metadata['resemble.contract'] !== String(CONTRACT_VERSION)) {
        throw new ResembleError('E_PARAMS', `${file} is table ${f.metadata['resemble.table']} of contract version ${f.metadata['resemble.contract']}, expected ${t} of version ${CONTRACT_VERSION}`, { path: file });
      }
      const expected = t === 'keys' ? s.manifest.keys : s.manifest.documents;
      if (f.rows !== expected) throw new ResembleError('E_INPUT', `${file} holds ${f.rows} rows, its manifest says ${expected}: a shard written in part or over another`, { path: file });
    }
  }
  if (documents !== first.manifest.pages) throw new ResembleError('E_INPUT', `the shards in ${dir} hold ${documents} pages, the crawl they were read from ${first.manifest.pages}`, { path: dir });
  const sketch = first.manifest.options.sketch;
  const params = resolveSketchOptions({ ...sketch, seed: BigInt(sketch.seed as string) } as SketchOptions);
  return { shards: shards.sort((a, b) => a.manifest.shard.index - b.manifest.shard.index), pages: first.manifest.pages, params, templates: first.manifest.options.templates };
}
