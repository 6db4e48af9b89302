// Exact values for the pairs the estimates cannot settle: the input is read again, only the pages
// of those pairs are shingled in full (their shingle sets are all that is held), and resemblance
// and containment are computed over the full sets, as the slow reference does.
import { closeSync, openSync, readSync } from 'node:fs';
import { intOption, optionError } from '../errors.js';
import { utf8Bytes } from '../graph/document.js';
import { readCrawl } from '../io/crawl.js';
import type { ReadOptions } from '../io/options.js';
import { HI, LO, words } from '../cluster/columns.js';
import { shingleSet } from '../sketch/exact.js';
import { resolveSketchOptions, type SketchOptions } from '../sketch/options.js';
import { sketchMany } from '../sketch/sketch.js';
import type { Pool } from '../workers/pool.js';
import { WHOLE_PAGE, type ContentTables } from '../sketch/content.js';
import { packTables, tablesOfPage, type CrawlTemplates } from './content.js';
import type { Spill } from './sketch-crawl.js';

/** Exact resemblance and containments of pairs, in the order given. */
export interface ExactPairs {
  resemblance: Float64Array;
  containmentAB: Float64Array;
  containmentBA: Float64Array;
  /** Pages shingled in full, and documents read to reach them. */
  pages: number;
  read: number;
}

/** Options of `exactPairs`. */
export interface ExactPairsOptions {
  /** The options the sketches were made with (width, unit, markup and seed decide the shingles). */
  sketch?: SketchOptions;
  /** Reader options, as for the first pass (the DocIds must come out the same). */
  read?: ReadOptions;
  /** Called as pages are read: pages shingled so far and in all. */
  onProgress?: (done: number, total: number) => void;
  /** The pages written by the first pass: read back one by one instead of reading the input again. */
  spill?: Spill;
  /** content 'main': the tables the pages were sketched against (their content shingles are what is compared). */
  templates?: CrawlTemplates;
  /** A worker pool to shingle the pages read back from `spill` on, many at a time (the caller closes it). */
  pool?: Pool;
  /** With `pool`: pages read back and shingled together, at most (default 512; also at most 16 MiB of pages). */
  windowPages?: number;
}

/** Shingle sets held at once while pairs are checked from the spill file. */
const CACHE_BYTES = 64 << 20;
/** Pages read back and shingled together on a pool: about this many bytes, or at most this many pages. */
const WINDOW_BYTES = 16 << 20;

/** |x ∩ y| of two ascending distinct u64 arrays, compared as 32-bit words. */
export function intersectionCount(x: BigUint64Array, y: BigUint64Array): number {
  const a = words(x), b = words(y);
  let i = 0, j = 0, n = 0;
  const na = x.length, nb = y.length;
  while (i < na && j < nb) {
    const ah = a[2 * i + HI], bh = b[2 * j + HI];
    if (ah < bh) i++;
    else if (ah > bh) j++;
    else {
      const al = a[2 * i + LO], bl = b[2 * j + LO];
      if (al < bl) i++;
      else if (al > bl) j++;
      else { n++; i++; j++; }
    }
  }
  return n;
}

function shingleOptionsOf(sketch: SketchOptions = {}): SketchOptions {
  const { w, unit, markup, seed } = sketch;
  return { w, unit, markup, seed };
}

/**
 * Takes the sketch options and the crawl's templates; returns page d's full shingle set as its
 * sketches saw it: every shingle of the page, or in content mode every shingle of its content
 * (a MOD_1 sketch against the page's own table keeps them all).
 */
function fullSetOf(sketch: SketchOptions = {}, templates?: CrawlTemplates): (bytes: Uint8Array, d: number) => BigUint64Array {
  if (resolveSketchOptions(sketch).content !== 'main') {
    const o = shingleOptionsOf(sketch);
    return (bytes) => shingleSet(bytes, o);
  }
  const { w, seed, linkDensity, minContent } = sketch;
  const o: SketchOptions = { w, seed, linkDensity, minContent, content: 'main', kind: 'mod', m: 1 };
  return (bytes, d) => {
    const set = sketchMany([bytes], templates ? { ...o, templates: tablesOfPage(templates, d) } : o);
    return set.values.slice();
  };
}

/**
 * Takes the sketch options and the crawl's templates; returns a function that shingles many pages
 * (their bytes and DocIds) in full on the pool at once, as fullSetOf does one by one: every page
 * as a MOD_1 sketch (it keeps every shingle; its values are a fixed permutation of the shingles, so
 * intersections count the same), against the page's own table in content mode.
 */
function fullSetsOn(pool: Pool, sketch: SketchOptions = {}, templates?: CrawlTemplates): (pages: Uint8Array[], ds: number[]) => Promise<BigUint64Array[]> {
  const main = resolveSketchOptions(sketch).content === 'main';
  const { w, unit, markup, seed, linkDensity, minContent } = sketch;
  const o: SketchOptions = main ? { w, seed, linkDensity, minContent, content: 'main', kind: 'mod', m: 1 } : { w, unit, markup, seed, kind: 'mod', m: 1 };
  return async (pages, ds) => {
    let opts: SketchOptions & { templates?: ContentTables } = o;
    if (main && templates) {
      // each page's own table (or none: sketched whole), packed in page order
      const tables: BigUint64Array[] = [];
      const docTable = Uint32Array.from(ds, (d) => {
        const own = tablesOfPage(templates, d);
        if (own.docTable[0] === WHOLE_PAGE) return WHOLE_PAGE;
        tables.push(own.values);
        return tables.length - 1;
      });
      opts = { ...o, templates: packTables(tables, docTable) };
    }
    const set = await pool.sketchMany(pages, opts);
    return ds.map((_, k) => set.values.slice(set.offsets[k], set.offsets[k + 1]));
  };
}

/** Exact values of one pair of shingle sets into out[i]; NaN when a page could not be read back. */
function fill(out: ExactPairs, i: number, x: BigUint64Array | undefined, y: BigUint64Array | undefined): void {
  if (!x || !y) { out.resemblance[i] = out.containmentAB[i] = out.containmentBA[i] = NaN; return; }
  const shared = intersectionCount(x, y);
  const union = x.length + y.length - shared;
  out.resemblance[i] = union > 0 ? shared / union : 0;
  out.containmentAB[i] = x.length > 0 ? shared / x.length : 0;
  out.containmentBA[i] = y.length > 0 ? shared / y.length : 0;
}

/**
 * Takes the input, the pairs (DocIds a[i], b[i]) and options; shingles the pages of those pairs in
 * full and returns the exact values per pair. With `spill`, each page is read back from the
 * spill file; otherwise the input is read again up to the last page needed.
 */
export async function exactPairs(input: string | readonly string[], a: Uint32Array, b: Uint32Array, options: ExactPairsOptions = {}): Promise<ExactPairs> {
  if (a.length !== b.length) throw optionError('b', `${a.length} DocIds`, b.length);
  const n = a.length;
  const out: ExactPairs = { resemblance: new Float64Array(n), containmentAB: new Float64Array(n), containmentBA: new Float64Array(n), pages: 0, read: 0 };
  if (n === 0) return out;
  const fullSet = fullSetOf(options.sketch, options.templates);
  const needed = new Map<number, BigUint64Array | undefined>();
  for (let i = 0; i < n; i++) { needed.set(a[i], undefined); needed.set(b[i], undefined); }
  let done = 0;
  if (options.spill) {
    // Pages are read back as pairs need them, pairs in order of their first page; shingle sets are
    // kept in a cache of CACHE_BYTES (oldest first out), so memory does not follow the pairs.
    const spill = options.spill;
    const fd = openSync(spill.path, 'r');
    const cache = new Map<number, BigUint64Array>();
    let cached = 0;
    const read = (d: number): Uint8Array | undefined => {
      const len = spill.length[d];
      if (!(len >= 0)) return undefined;
      const bytes = new Uint8Array(len);
      let got = 0;
      while (got < len) {
        const r = readSync(fd, bytes, got, len - got, spill.offset[d] + got);
        if (r === 0) break;
        got += r;
      }
      return got === len ? bytes : undefined;
    };
    const seen = new Set<number>();
    const load = (d: number): BigUint64Array | undefined => {
      const hit = cache.get(d);
      if (hit) return hit;
      const page = read(d);
      if (!page) return undefined;
      const set = fullSet(page, d);
      if (!seen.has(d)) { seen.add(d); done++; options.onProgress?.(done, needed.size); }
      cache.set(d, set);
      cached += set.byteLength;
      for (const [k, v] of cache) {
        if (cached <= CACHE_BYTES || k === d) break;
        cache.delete(k); cached -= v.byteLength;
      }
      return set;
    };
    try {
      const order = Uint32Array.from({ length: n }, (_, i) => i).sort((x, y) => a[x] - a[y] || b[x] - b[y]);
      if (!options.pool) {
        for (const i of order) {
          const x = load(a[i]);
          fill(out, i, x, load(b[i]));
        }
      } else {
        // windows of pairs in order: the pages a window needs that are not cached are read back and
        // shingled together on the pool, then its pairs are filled (the cache bounds memory as above)
        const fullSets = fullSetsOn(options.pool, options.sketch, options.templates);
        const windowPages = intOption('windowPages', options.windowPages, 512, 1, 1 << 20);
        let from = 0;
        while (from < n) {
          const want: number[] = [], pages: Uint8Array[] = [];
          const wanted = new Set<number>();
          let bytes = 0, to = from;
          for (; to < n && want.length < windowPages && bytes < WINDOW_BYTES; to++) {
            for (const d of [a[order[to]], b[order[to]]]) {
              if (cache.has(d) || wanted.has(d)) continue;
              wanted.add(d);
              const page = read(d);
              if (!page) continue;
              want.push(d); pages.push(page); bytes += page.length;
            }
          }
          const sets = want.length ? await fullSets(pages, want) : [];
          const fresh = new Map<number, BigUint64Array>();
          want.forEach((d, k) => fresh.set(d, sets[k]));
          for (const d of want) if (!seen.has(d)) { seen.add(d); done++; options.onProgress?.(done, needed.size); }
          for (let q = from; q < to; q++) {
            const i = order[q];
            const get = (d: number) => cache.get(d) ?? fresh.get(d);
            fill(out, i, get(a[i]), get(b[i]));
          }
          // the window's pages join the cache, oldest out past its bound
          for (const [d, set] of fresh) { cache.set(d, set); cached += set.byteLength; }
          for (const [k, v] of cache) {
            if (cached <= CACHE_BYTES) break;
            cache.delete(k); cached -= v.byteLength;
          }
          from = to;
        }
      }
    } finally {
      closeSync(fd);
    }
    out.read = seen.size;
    out.pages = done;
    return out;
  } else {
    let last = 0;
    for (const d of needed.keys()) last = Math.max(last, d);
    // Errors and skips were reported by the first pass.
    const read = { ...(options.read ?? {}), links: false, onBytes: undefined, onError: undefined, onWarning: undefined, onSkip: undefined };
    let id = 0;
    for await (const doc of readCrawl(input, read)) {
      if (needed.has(id)) {
        needed.set(id, fullSet(utf8Bytes(doc), id));
        done++; options.onProgress?.(done, needed.size);
      }
      if (id++ === last) break;
    }
    out.read = id;
  }
  out.pages = done;
  // A page missing on the second read (the input changed) keeps no exact value: NaN joins nothing.
  for (let i = 0; i < n; i++) fill(out, i, needed.get(a[i]), needed.get(b[i]));
  return out;
}
