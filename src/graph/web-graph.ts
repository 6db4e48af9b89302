import { optionError, rejectUnknown } from '../errors.js';
import { csrFromRows, reverseCsr, type Csr } from './csr.js';
import type { Document, ReadError } from './document.js';
import { normalizeUrl, parseUrl } from './url.js';

/** Options for `WebGraph.fromDocuments` / `fromEdges`. */
export interface WebGraphOptions {
  /** Called for each unparseable page URL or link (reported with the page it came from, then skipped). Default: ignore. */
  onError?: (e: ReadError) => void;
}

/**
 * The web graph of a crawl: documents numbered by DocId (input order), their hosts, and the links
 * between them as CSR over DocIds. A link is internal when its normalized target is a page of the
 * crawl; internal links are deduplicated per page with self-links left out, links to URLs outside
 * the crawl are kept apart (deduplicated, in order of first appearance) and counted per page.
 * When two documents share a normalized URL, the lower DocId is the one links point to.
 */
export class WebGraph {
  /** DocId → normalized URL (the URL as given when it does not parse). */
  readonly urls: string[];
  /** HostId → host (`name` or `name:port`), in order of first appearance. */
  readonly hosts: string[];
  /** DocId → HostId. */
  readonly hostOf: Uint32Array;
  /** Out-links: page i links to `linkTargets[linkOffsets[i] .. linkOffsets[i + 1])`, ascending. */
  readonly linkOffsets: Uint32Array;
  readonly linkTargets: Uint32Array;
  /** DocId → number of distinct links to URLs outside the crawl. */
  readonly externalCount: Uint32Array;
  /** External links: page i's are `externalUrls[externalOffsets[i] .. externalOffsets[i + 1])`. */
  readonly externalOffsets: Uint32Array;
  readonly externalUrls: string[];
  private readonly index: Map<string, number>;
  private reverse: Csr | undefined;

  private constructor(urls: string[], links: Csr, external: string[][]) {
    this.urls = urls;
    this.index = new Map();
    for (let i = 0; i < urls.length; i++) if (!this.index.has(urls[i])) this.index.set(urls[i], i);
    const hostIds = new Map<string, number>();
    this.hosts = [];
    this.hostOf = new Uint32Array(urls.length);
    for (let i = 0; i < urls.length; i++) {
      const host = parseUrl(urls[i])?.host ?? '';
      let h = hostIds.get(host);
      if (h === undefined) {
        h = this.hosts.length;
        hostIds.set(host, h);
        this.hosts.push(host);
      }
      this.hostOf[i] = h;
    }
    this.linkOffsets = links.offsets;
    this.linkTargets = links.targets;
    this.externalCount = new Uint32Array(urls.length);
    this.externalOffsets = new Uint32Array(urls.length + 1);
    this.externalUrls = [];
    for (let i = 0; i < urls.length; i++) {
      const row = external[i] ?? [];
      this.externalCount[i] = row.length;
      for (const u of row) this.externalUrls.push(u);
      this.externalOffsets[i + 1] = this.externalUrls.length;
    }
  }

  /** Number of documents. */
  get size(): number {
    return this.urls.length;
  }

  /** Takes a URL (any spelling); returns the DocId of the page with that normalized URL, or undefined. */
  docId(url: string): number | undefined {
    const norm = normalizeUrl(url);
    return this.index.get(norm ?? url);
  }

  /** Takes a DocId; returns the DocIds it links to (a view into `linkTargets`, ascending). */
  outLinks(doc: number): Uint32Array {
    return this.linkTargets.subarray(this.linkOffsets[doc], this.linkOffsets[doc + 1]);
  }

  /** Takes a DocId; returns its links to URLs outside the crawl. */
  externalLinks(doc: number): string[] {
    return this.externalUrls.slice(this.externalOffsets[doc], this.externalOffsets[doc + 1]);
  }

  /** Returns the in-links as reverse CSR (row j lists the pages linking to j, ascending); computed once. */
  inLinks(): Csr {
    this.reverse ??= reverseCsr({ offsets: this.linkOffsets, targets: this.linkTargets }, this.size);
    return this.reverse;
  }

  /** Takes documents (with `links` when extracted); returns their graph. Unparseable URLs are reported and skipped. */
  static fromDocuments(docs: readonly Document[], options: WebGraphOptions = {}): WebGraph {
    rejectUnknown(options, ['onError'], 'WebGraph.fromDocuments');
    const onError = options.onError ?? (() => {});
    const urls = docs.map((d) => {
      const norm = normalizeUrl(d.url);
      if (norm === undefined) {
        onError({ source: d.source ?? d.url, location: 'page URL', code: 'E_INPUT', message: `unparseable page URL ${JSON.stringify(d.url)}` });
      }
      return norm ?? d.url;
    });
    const first = new Map<string, number>();
    for (let i = 0; i < urls.length; i++) if (!first.has(urls[i])) first.set(urls[i], i);
    const rows: number[][] = new Array(docs.length);
    const external: string[][] = new Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const internal: number[] = [];
      const outside = new Set<string>();
      for (const link of docs[i].links ?? []) {
        const norm = normalizeUrl(link, urls[i]);
        if (norm === undefined) {
          onError({ source: docs[i].source ?? docs[i].url, location: `link on ${urls[i]}`, code: 'E_INPUT', message: `unparseable link URL ${JSON.stringify(link)}` });
          continue;
        }
        const target = first.get(norm);
        if (target === undefined) outside.add(norm);
        else if (target !== i && urls[target] !== urls[i]) internal.push(target);
      }
      rows[i] = internal;
      external[i] = [...outside];
    }
    return new WebGraph(urls, csrFromRows(rows), external);
  }

  /** Takes page URLs and DocId pairs [from, to]; returns their graph (no external links). */
  static fromEdges(urls: readonly string[], edges: Iterable<readonly [number, number]>, options: WebGraphOptions = {}): WebGraph {
    rejectUnknown(options, ['onError'], 'WebGraph.fromEdges');
    const onError = options.onError ?? (() => {});
    const norm = urls.map((u) => {
      const n = normalizeUrl(u);
      if (n === undefined) onError({ source: u, location: 'page URL', code: 'E_INPUT', message: `unparseable page URL ${JSON.stringify(u)}` });
      return n ?? u;
    });
    const rows: number[][] = norm.map(() => []);
    for (const [from, to] of edges) {
      for (const id of [from, to]) {
        if (!Number.isInteger(id) || id < 0 || id >= norm.length) throw optionError('edge DocId', `integer 0..${norm.length - 1}`, id);
      }
      if (from !== to && norm[from] !== norm[to]) rows[from].push(to);
    }
    return new WebGraph(norm, csrFromRows(rows), []);
  }
}
