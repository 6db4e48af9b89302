/**
 * Content for the mirroring test and for hybrid: what they read (a content source by URL, a
 * similarity, per-host page sketches keyed by path), and those from the core engine over a local
 * crawl (Broder's resemblance of sketches, as §4.1.3 uses). Call the core's `await init()` before
 * building any of these.
 */
import { enumOption, ResembleError } from '../errors.js';
import type { Document } from '../graph/document.js';
import { utf8Bytes } from '../graph/document.js';
import { resemblance, sketch, sketchMany, type Sketch, type SketchOptions } from '../sketch/index.js';
import type { SketchSet } from '../sketch/sketch-set.js';
import { splitUrl, type HostSet } from './host-set.js';

/** What a content source answers for one URL: bytes or text; null when the page is known to fail; undefined when nothing is known of it. */
export type Content = Uint8Array | string | null | undefined;

/**
 * Page content by URL: the bytes (or text); null when the page is known to fail (missing, an
 * error status: the paper's failed fetch); undefined when nothing is known of it (not in a local
 * crawl). May be async.
 */
export type ContentSource = (url: string) => Content | Promise<Content>;

/** Resemblance of two pages' contents, 0..1; NaN when they cannot be compared (too short to shingle). */
export type Similarity = (a: Uint8Array | string, b: Uint8Array | string) => number;

/** One host's pages: sorted paths, a sketch per path, and optionally one 64-bit key per page for candidate generation. */
export interface HostPages<S> {
  paths: readonly string[];
  sketches: readonly S[];
  /** Per page, its size in bytes, when known (the mirroring rule's share of a host's bytes). */
  bytes?: ArrayLike<number>;
  /** Per page, a value equal for two pages with probability their resemblance (a min-hash: the smallest sketch value). */
  keys?: BigUint64Array;
}

/** Per-host page sketches and the estimator that compares two sketches (NaN when they cannot be compared). */
export interface HostContent<S> {
  /** Takes a host; returns its pages' sketches, or undefined when none were kept. */
  pages(host: string): HostPages<S> | undefined;
  /** Takes two sketches; returns their estimated resemblance (NaN when they cannot be compared). */
  resemblance(a: S, b: S): number;
}

/** Resemblance of two sketches; NaN when either is empty (a page shorter than one shingle says nothing). */
function sketchResemblance(a: Sketch, b: Sketch): number {
  return a.values.length === 0 || b.values.length === 0 ? NaN : resemblance(a, b);
}

const where = (host: string, path: string) => `${host}/${path}`;

/**
 * Takes crawled documents; returns a content source answering from them. A page the crawl does
 * not hold (or holds empty, as a URL list does) is unknown (undefined) by default: a crawl's
 * silence is not a failed fetch. With `absent: 'failed'` it counts as failing (null), which
 * suits a crawl known to be complete.
 */
export function crawlContentSource(documents: readonly Document[], options: { absent?: 'unknown' | 'failed' } = {}): ContentSource {
  const absent = enumOption('absent', options.absent, 'unknown', ['unknown', 'failed'] as const) === 'failed' ? null : undefined;
  const pages = new Map<string, Uint8Array>();
  for (const d of documents) {
    const bytes = utf8Bytes(d);
    if (bytes.length === 0) continue;
    const p = splitUrl(d.url);
    // The first copy of a URL wins, as in the web graph.
    if (p && !pages.has(where(p.host, p.path))) pages.set(where(p.host, p.path), bytes);
  }
  return (url) => {
    const p = splitUrl(url);
    return (p && pages.get(where(p.host, p.path))) ?? absent;
  };
}

/** Takes crawled documents; returns each page's size in UTF-8 bytes by URL, the first copy of a URL as crawlContentSource answers it (the mirroring test's `pageBytes`). */
export function crawlPageBytes(documents: readonly Document[]): (url: string) => number | undefined {
  const sizes = new Map<string, number>();
  for (const d of documents) {
    const n = utf8Bytes(d).length;
    const p = splitUrl(d.url);
    if (n > 0 && p && !sizes.has(where(p.host, p.path))) sizes.set(where(p.host, p.path), n);
  }
  return (url) => {
    const p = splitUrl(url);
    return p ? sizes.get(where(p.host, p.path)) : undefined;
  };
}

/** Takes sketch options; returns a similarity estimating resemblance from sketches (NaN for a page too short to shingle), each content sketched once (cached by identity). */
export function sketchSimilarity(options: SketchOptions = {}): Similarity {
  const bytesCache = new WeakMap<Uint8Array, Sketch>();
  const textCache = new Map<string, Sketch>();
  const of = (doc: Uint8Array | string): Sketch => {
    if (typeof doc === 'string') {
      let s = textCache.get(doc);
      if (!s) textCache.set(doc, (s = sketch(doc, options)));
      return s;
    }
    let s = bytesCache.get(doc);
    if (!s) bytesCache.set(doc, (s = sketch(doc, options)));
    return s;
  };
  return (a, b) => sketchResemblance(of(a), of(b));
}

/**
 * Takes hosts and crawled documents; returns each host's page sketches keyed by path (one
 * `sketchMany` call for the whole crawl), with the smallest sketch value of each page as its
 * key: two pages share it with probability about their resemblance (a min-hash), which is what
 * hybrid's content-only candidates need.
 */
export function hostContentFromDocuments(hosts: HostSet, documents: readonly Document[], options: SketchOptions = {}): HostContent<Sketch> {
  const perHost = new Map<number, Map<string, number>>();
  const docs: Uint8Array[] = [];
  for (const d of documents) {
    const bytes = utf8Bytes(d);
    if (bytes.length === 0) continue;
    const p = splitUrl(d.url);
    const h = p ? hosts.id(p.host) : -1;
    if (!p || h < 0) continue;
    let m = perHost.get(h);
    if (!m) perHost.set(h, (m = new Map()));
    if (m.has(p.path)) continue;
    m.set(p.path, docs.length);
    docs.push(bytes);
  }
  const set = sketchMany(docs, options);
  const pages = new Map<string, HostPages<Sketch>>();
  for (const [h, m] of perHost) {
    const paths = [...m.keys()].sort();
    const sketches = paths.map((p) => set.get(m.get(p)!));
    // An empty sketch (a page shorter than one shingle) falls back to the page's lexical fingerprint.
    const keys = BigUint64Array.from(paths, (p, i) => (sketches[i].values.length > 0 ? sketches[i].values[0] : set.lexicalFp[m.get(p)!]));
    pages.set(hosts.hosts[h], { paths, sketches, keys });
  }
  return { pages: (host) => pages.get(host), resemblance: sketchResemblance };
}

/** Takes URLs and page sizes by DocId; returns host/path → the first DocId with content there (as the crawl's content source and host content pick it). */
function firstPages(urls: readonly string[], sizes: ArrayLike<number>, keep: (host: string) => boolean = () => true): Map<string, number> {
  const first = new Map<string, number>();
  for (let d = 0; d < urls.length; d++) {
    if (sizes[d] === 0) continue;
    const p = splitUrl(urls[d]);
    if (!p || !keep(p.host)) continue;
    const key = where(p.host, p.path);
    if (!first.has(key)) first.set(key, d);
  }
  return first;
}

/**
 * Takes hosts, the crawl's URLs, each page's size in UTF-8 bytes and its sketch (same DocIds; the
 * sketches made with default options while the crawl streamed); returns the same host content as
 * `hostContentFromDocuments` over the loaded crawl, without the pages.
 */
export function hostContentFromSketches(hosts: HostSet, urls: readonly string[], sizes: ArrayLike<number>, set: SketchSet): HostContent<Sketch> {
  const perHost = new Map<number, Map<string, number>>();
  for (const d of firstPages(urls, sizes, (host) => hosts.id(host) >= 0).values()) {
    const p = splitUrl(urls[d])!;
    const h = hosts.id(p.host);
    let m = perHost.get(h);
    if (!m) perHost.set(h, (m = new Map()));
    m.set(p.path, d);
  }
  const pages = new Map<string, HostPages<Sketch>>();
  for (const [h, m] of perHost) {
    const paths = [...m.keys()].sort();
    const sketches = paths.map((p) => set.get(m.get(p)!));
    const keys = BigUint64Array.from(paths, (p, i) => (sketches[i].values.length > 0 ? sketches[i].values[0] : set.lexicalFp[m.get(p)!]));
    const bytes = Float64Array.from(paths, (p) => sizes[m.get(p)!]);
    pages.set(hosts.hosts[h], { paths, sketches, keys, bytes });
  }
  return { pages: (host) => pages.get(host), resemblance: sketchResemblance };
}

/**
 * Takes the crawl's URLs, each page's size in UTF-8 bytes and its sketch with default options
 * (same DocIds); returns a content source and a similarity that give the mirroring test the same
 * answers as `crawlContentSource` over the loaded crawl with the default similarity, from the
 * sketches alone. The source answers a page of the crawl with a stand-in (an empty array the
 * similarity knows); the similarity sketches any other content it is given.
 */
export function sketchedContent(urls: readonly string[], sizes: ArrayLike<number>, set: SketchSet, options: { absent?: 'unknown' | 'failed' } = {}): { source: ContentSource; similarity: Similarity; pageBytes: (url: string) => number | undefined } {
  const absent = enumOption('absent', options.absent, 'unknown', ['unknown', 'failed'] as const) === 'failed' ? null : undefined;
  const first = firstPages(urls, sizes);
  const handles = new Map<number, Uint8Array>();
  const docOf = new WeakMap<Uint8Array, number>();
  const source: ContentSource = (url) => {
    const p = splitUrl(url);
    const d = p && first.get(where(p.host, p.path));
    if (d === undefined || d === null) return absent;
    let h = handles.get(d);
    if (!h) { handles.set(d, (h = new Uint8Array(0))); docOf.set(h, d); }
    return h;
  };
  const other = sketchSimilarity();
  const similarity: Similarity = (a, b) => {
    const da = typeof a === 'string' ? undefined : docOf.get(a), db = typeof b === 'string' ? undefined : docOf.get(b);
    if (da === undefined || db === undefined) {
      if (da === undefined && db === undefined) return other(a, b);
      throw new ResembleError('E_OPTION', 'sketchedContent: its similarity compares pages of its own source only');
    }
    return sketchResemblance(set.get(da), set.get(db));
  };
  const pageBytes = (url: string) => {
    const p = splitUrl(url);
    const d = p && first.get(where(p.host, p.path));
    return d === undefined || d === null ? undefined : sizes[d];
  };
  return { source, similarity, pageBytes };
}
