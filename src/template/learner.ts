// Templates learnt as a crawl arrives: the pages of a site (a host, or a section of one) are held
// until `trustAfter` distinct pages of it have come; its template is then learnt from those pages,
// frozen (so every page of the site is sketched against the same table), and the held pages and
// all later ones are released with it. A site that never gets that many pages (a section of a few
// pages: /2019/, /category/, /about.html) falls back, when it is settled, on its host's template:
// learnt from a bounded sample of the host's pages across its sites (the first `sample` distinct
// ones settled), as `learnTemplates` does for sections in one pass. Held pages are bounded in bytes:
// past the bound the site holding pages the longest is settled early (its host's template, else
// its own with 3 distinct pages, else none). A site whose template is light (under `heavy`) has its
// pages sketched whole; one with too few pages to learn from, on a host with too few too, gets an
// empty table (link-heavy blocks and the title still left out).
import { intOption, optionError } from '../errors.js';
import { WHOLE_PAGE, blockFingerprints, type BlockFingerprints, type ContentTables } from '../sketch/content.js';
import { fingerprint } from '../sketch/rabin.js';
import { byteBound, checkDoc, type DocInput } from '../sketch/input.js';
import { sketchMany, type SketchManyOptions } from '../sketch/sketch.js';
import type { SketchSet } from '../sketch/sketch-set.js';
import { MIN_TEMPLATE_PAGES, resolveTemplateOptions, siteTemplate, templateTable, type SiteTemplate, type TemplateOptions } from './learn.js';

/**
 * A page released by the learner, with the template table of its host: empty when the host had too
 * few pages to learn one (only link-heavy blocks and the title are left out), undefined when its
 * template is light (the page is sketched whole, as content 'page').
 */
export interface ReadyPage<T> {
  doc: DocInput;
  host: string;
  item: T;
  table: BigUint64Array | undefined;
  /** The table learnt for the page's site whether or not it is heavy (empty when none was learnt): what a content comparison with pages of other sites leaves out. */
  learnt: BigUint64Array;
}

/** The table of a host settled with too few pages to learn a template: no block is template, the link rule still applies. */
const NO_TEMPLATE = new BigUint64Array(0);

/**
 * Options of a TemplateLearner: how templates are learnt (a site learns from its first `trustAfter`
 * distinct pages; `sample` is the size of each host's sample for the fallback), and the bounds.
 */
export interface LearnerOptions extends TemplateOptions {
  /** Bytes of pages held while their sites are learning, at most. Default 64 MiB. */
  maxHeldBytes?: number;
  /** Bytes kept in the hosts' samples (pages not yet reduced to their blocks, and blocks), at most;
   *  past it the oldest sample is frozen as it stands. Default 32 MiB. */
  maxSampleBytes?: number;
}

/** A site's held pages, ready to learn from: distinct pages' fingerprints and block fingerprints. */
interface Prepared { fps: bigint[]; blocks: BlockFingerprints }

/** One page of a host's sample: its blocks, or its bytes until they are computed (many pages per call). */
type SamplePage = { values: BigUint64Array; tokens: Uint32Array; links: Uint32Array } | { doc: DocInput };

/** A host's sample for the fallback template: its first `sample` distinct pages, in arrival order. */
interface HostSample {
  pages: SamplePage[];
  seen: Set<bigint>;
  bytes: number;
  /** The fallback learnt from the sample as it stood (dropped when a page is added). */
  cached?: Fallback | null;
  /** Set once the sample is full (or frozen by the bound): the host's template, undefined when its sample was too small. */
  fallback?: Fallback;
  frozen: boolean;
}

/** A host's template for its sites too small to learn their own: the table to sketch with (undefined when light), the table learnt, what the sample showed. */
interface Fallback { table: BigUint64Array | undefined; learnt: BigUint64Array; site: SiteTemplate }

interface HostState<T> {
  held: Array<{ doc: DocInput; item: T }>;
  seen: Set<bigint>;
  bytes: number;
  settled: boolean;
  table: BigUint64Array | undefined;
  /** The table learnt, light or heavy (NO_TEMPLATE when none was). */
  learnt?: BigUint64Array;
  site?: SiteTemplate;
}

/** Learns each host's template from its first pages while a crawl goes on; see the file comment. */
export class TemplateLearner<T = unknown> {
  private readonly hosts = new Map<string, HostState<T>>();
  private readonly hostOfSite = new Map<string, string>();
  private readonly samples = new Map<string, HostSample>();
  private readonly trustAfter: number;
  private readonly sample: number;
  private readonly maxSample: number;
  private sampleBytes = 0;
  private readonly share: number;
  private readonly heavy: number;
  private readonly maxHeld: number;
  private heldBytes = 0;

  constructor(options: LearnerOptions = {}) {
    if (options === null || typeof options !== 'object') throw optionError('learner options', 'an object', options);
    const { maxHeldBytes, maxSampleBytes, ...rest } = options;
    const o = resolveTemplateOptions(rest);
    this.trustAfter = o.trustAfter;
    this.sample = o.sample;
    this.maxSample = intOption('maxSampleBytes', maxSampleBytes, 32 << 20, 0, 2 ** 52);
    this.share = o.share;
    this.heavy = o.heavy;
    this.maxHeld = intOption('maxHeldBytes', maxHeldBytes, 64 << 20, 1, 2 ** 52);
  }

  /**
   * Takes one page of site `host` (of the host `group`, whose sample is the fallback for its sites
   * too small to learn from; default the site itself); returns the pages now ready to sketch (this
   * one, or a site's held pages once it is trusted).
   */
  add(doc: DocInput, host: string, item: T, group: string = host): ReadyPage<T>[] {
    const bad = checkDoc(doc);
    if (bad) throw optionError('doc', 'a string or Uint8Array', bad);
    let h = this.hosts.get(host);
    if (!h) { h = { held: [], seen: new Set(), bytes: 0, settled: false, table: undefined }; this.hosts.set(host, h); this.hostOfSite.set(host, group); }
    // the page's fingerprint (its identity among the sample's distinct pages) only while it can count
    let f: bigint | undefined;
    const fp = () => (f ??= fingerprint(doc));
    if (!this.samples.get(group)?.frozen) this.addToSample(group, doc, fp());
    if (h.settled) return [{ doc, host, item, table: h.table, learnt: h.learnt ?? NO_TEMPLATE }];
    h.held.push({ doc, item });
    h.seen.add(fp());
    const b = byteBound(doc);
    h.bytes += b; this.heldBytes += b;
    const out: ReadyPage<T>[] = [];
    if (h.seen.size >= this.trustAfter) out.push(...this.settle(host, h));
    // over the bound: settle the hosts that have held pages longest (Map order is arrival order)
    for (const [name, other] of this.hosts) {
      if (this.heldBytes <= this.maxHeld) break;
      if (!other.settled && other.held.length) out.push(...this.settle(name, other));
    }
    return out;
  }

  /**
   * True when a page of site `host` (of the host `group`) added now may be kept by the learner: its
   * site is still learning, or its host's sample is still taking pages. Otherwise `add` hands the
   * page straight back and keeps nothing of it.
   */
  retains(host: string, group: string = host): boolean {
    const h = this.hosts.get(host);
    return !h || !h.settled || !this.samples.get(group)?.frozen;
  }

  /**
   * Releases every held page. A site with fewer than trustAfter distinct pages gets its host's
   * template, learnt from the host's first `sample` distinct pages; with too few pages on the host
   * as well, no template blocks.
   */
  flush(): ReadyPage<T>[] {
    const waiting: Array<[string, HostState<T>, Prepared]> = [];
    for (const [name, h] of this.hosts) if (!h.settled && h.held.length) waiting.push([name, h, this.prepare(h)]);
    const out: ReadyPage<T>[] = [];
    for (const [name, h, p] of waiting) out.push(...this.settle(name, h, false, p));
    return out;
  }

  /** The frozen template table of a host (undefined while it is learning or when its template is light; empty when it had too few pages to learn one). */
  table(host: string): BigUint64Array | undefined {
    return this.hosts.get(host)?.table;
  }

  /**
   * The template to sketch a page of a site still learning with, for an answer now: its host's
   * (the gated table and the table learnt, from the host's sample as it stands), once the host has
   * trustAfter distinct pages; undefined before (the page is sketched whole). It changes until the
   * host's sample is full, then stays.
   */
  provisional(host: string): { table: BigUint64Array | undefined; learnt: BigUint64Array } | undefined {
    const h = this.hosts.get(host);
    if (h?.settled) return { table: h.table, learnt: h.learnt ?? NO_TEMPLATE };
    const f = this.hostTemplate(this.hostOfSite.get(host) ?? host);
    return f ? { table: f.table, learnt: f.learnt } : undefined;
  }

  /** The pages held now for the sites of host `group` still learning. */
  heldOf(group: string): Array<{ doc: DocInput; item: T; host: string }> {
    const out: Array<{ doc: DocInput; item: T; host: string }> = [];
    for (const [name, h] of this.hosts) if (!h.settled && this.hostOfSite.get(name) === group) for (const p of h.held) out.push({ doc: p.doc, item: p.item, host: name });
    return out;
  }

  /** What a host's sample showed of its template (undefined while it is learning, or when it was settled with too few pages to learn). */
  site(host: string): SiteTemplate | undefined {
    return this.hosts.get(host)?.site;
  }

  /** Hosts learning, pages and bytes held now. */
  get held(): { hosts: number; pages: number; bytes: number } {
    let hosts = 0, pages = 0;
    for (const h of this.hosts.values()) if (!h.settled && h.held.length) { hosts++; pages += h.held.length; }
    return { hosts, pages, bytes: this.heldBytes };
  }

  /** The distinct held pages of a site (as learnTemplates counts them), their fingerprints and blocks. */
  private prepare(h: HostState<T>): Prepared {
    const distinct: DocInput[] = [];
    const fps: bigint[] = [];
    const seen = new Set<bigint>();
    for (const p of h.held) { const f = fingerprint(p.doc); if (!seen.has(f)) { seen.add(f); distinct.push(p.doc); fps.push(f); } }
    return { fps, blocks: blockFingerprints(distinct) };
  }

  private settle(host: string, h: HostState<T>, early = true, prepared?: Prepared): ReadyPage<T>[] {
    const group = this.hostOfSite.get(host) ?? host;
    const { fps, blocks } = prepared ?? this.prepare(h);
    const distinct = fps;
    const rows = Uint32Array.from(fps, (_, k) => k);
    if (distinct.length >= this.trustAfter) {
      const table = templateTable(blocks, rows, this.share);
      // a light template stays on the pages: they are sketched whole
      h.site = siteTemplate(host, blocks, rows, table, this.heavy);
      h.table = h.site.heavy ? table : undefined;
      h.learnt = table;
    } else {
      // too few pages of its own: the host's template when its sample is large enough
      const fallback = this.hostTemplate(group);
      if (fallback) { h.site = fallback.site; h.table = fallback.table; h.learnt = fallback.learnt; }
      else if (early && distinct.length >= MIN_TEMPLATE_PAGES) {
        const table = templateTable(blocks, rows, this.share);
        h.site = siteTemplate(host, blocks, rows, table, this.heavy);
        h.table = h.site.heavy ? table : undefined;
        h.learnt = table;
      } else { h.table = NO_TEMPLATE; h.learnt = NO_TEMPLATE; }
    }
    // a site settled before it had trustAfter pages keeps learning no more
    h.settled = true;
    this.heldBytes -= h.bytes;
    const learnt = h.learnt ?? NO_TEMPLATE;
    const out = h.held.map((p) => ({ doc: p.doc, host, item: p.item, table: h.table, learnt }));
    h.held = []; h.seen = new Set(); h.bytes = 0;
    return out;
  }

  /** Adds a page to its host's sample until the sample is full; past the byte bound, the oldest samples are frozen as they stand. */
  private addToSample(group: string, doc: DocInput, f: bigint): void {
    let s = this.samples.get(group);
    if (!s) { s = { pages: [], seen: new Set(), bytes: 0, frozen: false }; this.samples.set(group, s); }
    if (s.frozen || s.seen.has(f)) return;
    s.seen.add(f);
    s.pages.push({ doc });
    s.cached = undefined;
    const b = byteBound(doc);
    s.bytes += b; this.sampleBytes += b;
    if (s.pages.length >= this.sample) this.freeze(group, s);
    for (const [name, other] of this.samples) {
      if (this.sampleBytes <= this.maxSample) break;
      if (!other.frozen) this.freeze(name, other);
    }
  }

  /** The host's template from its sample as it is now (undefined when the sample is under trustAfter pages). */
  private hostTemplate(group: string): Fallback | undefined {
    const s = this.samples.get(group);
    if (!s) return undefined;
    if (s.frozen) return s.fallback;
    if (s.cached === undefined) s.cached = this.learnSample(group, s) ?? null;
    return s.cached ?? undefined;
  }

  private learnSample(group: string, s: HostSample): Fallback | undefined {
    if (s.pages.length < this.trustAfter) return undefined;
    // blocks of the pages not computed yet, in one call; the sample then holds blocks, not bytes
    const todo: number[] = [];
    s.pages.forEach((p, k) => { if ('doc' in p) todo.push(k); });
    if (todo.length) {
      const got = blockFingerprints(todo.map((k) => (s.pages[k] as { doc: DocInput }).doc));
      todo.forEach((k, r) => {
        const a = got.offsets[r], b = got.offsets[r + 1];
        const before = byteBound((s.pages[k] as { doc: DocInput }).doc), after = (b - a) * 16 + 64;
        s.pages[k] = { values: got.values.slice(a, b), tokens: got.tokens.slice(a, b), links: got.links.slice(a, b) };
        s.bytes += after - before; this.sampleBytes += after - before;
      });
    }
    const pages = s.pages as Array<{ values: BigUint64Array; tokens: Uint32Array; links: Uint32Array }>;
    const offsets = new Uint32Array(pages.length + 1);
    pages.forEach((p, k) => { offsets[k + 1] = offsets[k] + p.values.length; });
    const total = offsets[pages.length];
    const blocks: BlockFingerprints = { values: new BigUint64Array(total), offsets, tokens: new Uint32Array(total), links: new Uint32Array(total) };
    pages.forEach((p, k) => { blocks.values.set(p.values, offsets[k]); blocks.tokens.set(p.tokens, offsets[k]); blocks.links.set(p.links, offsets[k]); });
    const rows = Uint32Array.from(pages, (_, k) => k);
    const table = templateTable(blocks, rows, this.share);
    const site = siteTemplate(group, blocks, rows, table, this.heavy);
    return { table: site.heavy ? table : undefined, learnt: table, site };
  }

  /** Fixes a host's fallback as its sample stands and lets the sample's blocks go. */
  private freeze(group: string, s: HostSample): void {
    s.fallback = s.cached === undefined ? this.learnSample(group, s) : s.cached ?? undefined;
    s.frozen = true;
    this.sampleBytes -= s.bytes;
    s.pages = []; s.seen = new Set(); s.bytes = 0;
  }
}

/** Content sketches of released pages, many per WebAssembly call, each against its host's table (a page without one is sketched whole). */
export function sketchReady<T>(pages: readonly ReadyPage<T>[], options: Omit<SketchManyOptions, 'templates' | 'content'> = {}): SketchSet {
  const index = new Map<BigUint64Array, number>();
  const tables: BigUint64Array[] = [];
  const docTable = new Uint32Array(pages.length);
  pages.forEach((p, i) => {
    if (!p.table) { docTable[i] = WHOLE_PAGE; return; }
    let t = index.get(p.table);
    if (t === undefined) { t = tables.length; index.set(p.table, t); tables.push(p.table); }
    docTable[i] = t;
  });
  const offsets = new Uint32Array(tables.length + 1);
  tables.forEach((t, k) => { offsets[k + 1] = offsets[k] + t.length; });
  const values = new BigUint64Array(offsets[tables.length]);
  tables.forEach((t, k) => values.set(t, offsets[k]));
  const templates: ContentTables = { values, offsets, docTable };
  return sketchMany(pages.map((p) => p.doc), { ...options, content: 'main', templates });
}
