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
import { ResembleError, intOption, optionError } from '../errors.js';
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

/** A page released by `addDeferred` / `flushDeferred`: its site's template may still be being learnt. */
export interface ReleasedPage<T> {
  doc: DocInput;
  host: string;
  item: T;
  template: LearntTemplate;
}

/** The table of a host settled with too few pages to learn a template: no block is template, the link rule still applies. */
const NO_TEMPLATE = new BigUint64Array(0);

/**
 * A site's template as learnt from its sample: known at once when the sample's block fingerprints
 * are computed where the learner runs, or once they come back from elsewhere (a worker pool; see
 * the learner's `blocks` source). The same object for every site that shares the template.
 */
export class LearntTemplate {
  /** The table to sketch with: undefined when the template is light (pages sketched whole), empty when none was learnt. */
  table: BigUint64Array | undefined = NO_TEMPLATE;
  /** The table learnt, light or heavy (empty when none was). */
  learnt: BigUint64Array = NO_TEMPLATE;
  /** What the sample showed (undefined when no template was learnt). */
  site: SiteTemplate | undefined;
  /** False until the table is known; `ready` then settles (rejected when the blocks could not be computed). */
  done = true;
  ready: Promise<void> | undefined;
}

/** The template of sites settled with too few pages to learn one, on hosts with too few as well. */
const NONE = new LearntTemplate();

/**
 * Where a learner gets block fingerprints: a promise of `blockFingerprints(docs)` computed elsewhere
 * (a worker pool), or undefined to have the learner compute them on its own thread.
 */
export type BlocksSource = (docs: DocInput[]) => Promise<BlockFingerprints> | undefined;

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

/**
 * A page kept to learn from: in its site's held pages, its host's sample, or both (one object, so
 * its blocks are computed once). Its bytes are let go once its blocks are known.
 */
interface Sampled {
  doc: DocInput | undefined;
  fp: bigint;
  /** byteBound of its bytes: what the sample counts for it until it is reduced to its blocks. */
  bound: number;
  blocks?: { values: BigUint64Array; tokens: Uint32Array; links: Uint32Array };
  /** Settles when blocks computed elsewhere are in. */
  computing?: Promise<void>;
  /** Counted in its sample's bytes as its blocks (the sample was learnt from while it was in it). */
  reduced?: boolean;
}

/** A host's sample for the fallback template: its first `sample` distinct pages, in arrival order. */
interface HostSample {
  pages: Sampled[];
  seen: Set<bigint>;
  bytes: number;
  /** Pages counted as their blocks whose blocks were not known yet: counted before the bound is next checked. */
  uncounted: Sampled[];
  /** The fallback learnt from the sample as it stood (dropped when a page is added); null when the sample was too small. */
  cached?: LearntTemplate | null;
  /** Set once the sample is full (or frozen by the bound): the host's template, undefined when its sample was too small. */
  fallback?: LearntTemplate;
  frozen: boolean;
}

interface HostState<T> {
  held: Array<{ doc: DocInput; item: T; page: Sampled }>;
  seen: Set<bigint>;
  bytes: number;
  settled: boolean;
  /** Set when settled. */
  template?: LearntTemplate;
}

/** Learns each host's template from its first pages while a crawl goes on; see the file comment. */
export class TemplateLearner<T = unknown> {
  private readonly hosts = new Map<string, HostState<T>>();
  private readonly hostOfSite = new Map<string, string>();
  private readonly samples = new Map<string, HostSample>();
  /** Samples with pages counted as blocks not known yet. */
  private readonly uncounted = new Set<HostSample>();
  private readonly trustAfter: number;
  private readonly sample: number;
  private readonly maxSample: number;
  private sampleBytes = 0;
  private readonly share: number;
  private readonly heavy: number;
  private readonly maxHeld: number;
  private heldBytes = 0;

  /**
   * Takes the options and, for the streaming pipeline, where block fingerprints are computed
   * (default: here, at once). With a source that computes them elsewhere, use `addDeferred` and
   * `flushDeferred`: what is learnt and which pages are released when is the same either way.
   */
  constructor(options: LearnerOptions = {}, private readonly blocks?: BlocksSource) {
    if (options === null || typeof options !== 'object') throw optionError('learner options', 'an object', options);
    const { maxHeldBytes, maxSampleBytes, ...rest } = options;
    const o = resolveTemplateOptions(rest);
    this.trustAfter = o.trustAfter;
    this.sample = o.sample;
    this.maxSample = intOption('maxSampleBytes', maxSampleBytes, 32 << 20, 0, 2 ** 52);
    this.share = o.share;
    this.heavy = o.heavy;
    this.maxHeld = intOption('maxHeldBytes', maxHeldBytes, 64 << 20, 1, 2 ** 52);
    if (blocks !== undefined && typeof blocks !== 'function') throw optionError('blocks', 'a function', blocks);
  }

  /**
   * Takes one page of site `host` (of the host `group`, whose sample is the fallback for its sites
   * too small to learn from; default the site itself); returns the pages now ready to sketch (this
   * one, or a site's held pages once it is trusted).
   */
  add(doc: DocInput, host: string, item: T, group: string = host): ReadyPage<T>[] {
    return this.addDeferred(doc, host, item, group).map(ready);
  }

  /**
   * As `add`, but a released page's template may still be being learnt (its blocks computing
   * elsewhere): sketch it once `template.done` (`await template.ready`).
   */
  addDeferred(doc: DocInput, host: string, item: T, group: string = host): ReleasedPage<T>[] {
    const bad = checkDoc(doc);
    if (bad) throw optionError('doc', 'a string or Uint8Array', bad);
    let h = this.hosts.get(host);
    if (!h) { h = { held: [], seen: new Set(), bytes: 0, settled: false }; this.hosts.set(host, h); this.hostOfSite.set(host, group); }
    // the page's fingerprint (its identity among the sample's distinct pages) only while it can count
    let page: Sampled | undefined;
    const sampled = () => (page ??= { doc, fp: fingerprint(doc), bound: byteBound(doc) });
    if (!this.samples.get(group)?.frozen) this.addToSample(group, sampled());
    if (h.settled) return [{ doc, host, item, template: h.template! }];
    const p = sampled();
    h.held.push({ doc, item, page: p });
    h.seen.add(p.fp);
    h.bytes += p.bound; this.heldBytes += p.bound;
    const out: ReleasedPage<T>[] = [];
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
    return this.flushDeferred().map(ready);
  }

  /** As `flush`, but a released page's template may still be being learnt (see `addDeferred`). */
  flushDeferred(): ReleasedPage<T>[] {
    const out: ReleasedPage<T>[] = [];
    for (const [name, h] of this.hosts) if (!h.settled && h.held.length) out.push(...this.settle(name, h, false));
    return out;
  }

  /** The frozen template table of a host (undefined while it is learning or when its template is light; empty when it had too few pages to learn one). */
  table(host: string): BigUint64Array | undefined {
    const t = this.hosts.get(host)?.template;
    return t?.done ? t.table : undefined;
  }

  /**
   * The template to sketch a page of a site still learning with, for an answer now: its host's
   * (the gated table and the table learnt, from the host's sample as it stands), once the host has
   * trustAfter distinct pages; undefined before (the page is sketched whole). It changes until the
   * host's sample is full, then stays.
   */
  provisional(host: string): { table: BigUint64Array | undefined; learnt: BigUint64Array } | undefined {
    const h = this.hosts.get(host);
    const t = h?.settled ? h.template : this.hostTemplate(this.hostOfSite.get(host) ?? host);
    return t?.done ? { table: t.table, learnt: t.learnt } : undefined;
  }

  /** The pages held now for the sites of host `group` still learning. */
  heldOf(group: string): Array<{ doc: DocInput; item: T; host: string }> {
    const out: Array<{ doc: DocInput; item: T; host: string }> = [];
    for (const [name, h] of this.hosts) if (!h.settled && this.hostOfSite.get(name) === group) for (const p of h.held) out.push({ doc: p.doc, item: p.item, host: name });
    return out;
  }

  /** What a host's sample showed of its template (undefined while it is learning, or when it was settled with too few pages to learn). */
  site(host: string): SiteTemplate | undefined {
    const t = this.hosts.get(host)?.template;
    return t?.done ? t.site : undefined;
  }

  /** Hosts learning, pages and bytes held now. */
  get held(): { hosts: number; pages: number; bytes: number } {
    let hosts = 0, pages = 0;
    for (const h of this.hosts.values()) if (!h.settled && h.held.length) { hosts++; pages += h.held.length; }
    return { hosts, pages, bytes: this.heldBytes };
  }

  private settle(host: string, h: HostState<T>, early = true): ReleasedPage<T>[] {
    const group = this.hostOfSite.get(host) ?? host;
    // the distinct held pages, as learnTemplates counts them
    const distinct: Sampled[] = [];
    const seen = new Set<bigint>();
    for (const p of h.held) if (!seen.has(p.page.fp)) { seen.add(p.page.fp); distinct.push(p.page); }
    if (distinct.length >= this.trustAfter) h.template = this.learn(host, distinct);
    else {
      // too few pages of its own: the host's template when its sample is large enough
      const fallback = this.hostTemplate(group);
      if (fallback) h.template = fallback;
      else if (early && distinct.length >= MIN_TEMPLATE_PAGES) h.template = this.learn(host, distinct);
      else h.template = NONE;
    }
    // a site settled before it had trustAfter pages keeps learning no more
    h.settled = true;
    this.heldBytes -= h.bytes;
    const template = h.template;
    const out = h.held.map((p) => ({ doc: p.doc, host, item: p.item, template }));
    h.held = []; h.seen = new Set(); h.bytes = 0;
    return out;
  }

  /** Adds a page to its host's sample until the sample is full; past the byte bound, the oldest samples are frozen as they stand. */
  private addToSample(group: string, page: Sampled): void {
    let s = this.samples.get(group);
    if (!s) { s = { pages: [], seen: new Set(), bytes: 0, uncounted: [], frozen: false }; this.samples.set(group, s); }
    if (s.frozen || s.seen.has(page.fp)) return;
    s.seen.add(page.fp);
    s.pages.push(page);
    s.cached = undefined;
    s.bytes += page.bound; this.sampleBytes += page.bound;
    if (s.pages.length >= this.sample) this.freeze(group, s);
    this.countReduced();
    for (const [name, other] of this.samples) {
      if (this.sampleBytes <= this.maxSample) break;
      if (!other.frozen) this.freeze(name, other);
    }
  }

  /** The host's template from its sample as it is now (undefined when the sample is under trustAfter pages). */
  private hostTemplate(group: string): LearntTemplate | undefined {
    const s = this.samples.get(group);
    if (!s) return undefined;
    if (s.frozen) return s.fallback;
    if (s.cached === undefined) s.cached = this.learnSample(group, s, true) ?? null;
    return s.cached ?? undefined;
  }

  /**
   * The template of a host's sample as it stands (undefined under trustAfter pages). Its pages are
   * counted as their blocks from now on (`count`: the sample is kept; when it is frozen, its bytes go).
   */
  private learnSample(group: string, s: HostSample, count: boolean): LearntTemplate | undefined {
    if (s.pages.length < this.trustAfter) return undefined;
    if (count) {
      for (const p of s.pages) if (!p.reduced) { p.reduced = true; s.uncounted.push(p); }
      if (s.uncounted.length) this.uncounted.add(s);
    }
    return this.learn(group, s.pages.slice());
  }

  /**
   * Counts the pages of unfrozen samples that were learnt from as their blocks (what they weigh
   * once reduced), computing here the blocks not known yet: the bound is checked on these bytes.
   */
  private countReduced(): void {
    for (const s of this.uncounted) {
      const missing = s.uncounted.filter((p) => !p.blocks);
      if (missing.length) fill(missing, blockFingerprints(missing.map((p) => p.doc!)));
      for (const p of s.uncounted) {
        const after = p.blocks!.values.length * 16 + 64;
        s.bytes += after - p.bound; this.sampleBytes += after - p.bound;
      }
      s.uncounted = [];
    }
    this.uncounted.clear();
  }

  /** Fixes a host's fallback as its sample stands and lets the sample go. */
  private freeze(group: string, s: HostSample): void {
    s.fallback = s.cached === undefined ? this.learnSample(group, s, false) : s.cached ?? undefined;
    s.frozen = true;
    // its pages' bytes go with it, counted or not
    s.uncounted = [];
    this.uncounted.delete(s);
    this.sampleBytes -= s.bytes;
    s.pages = []; s.seen = new Set(); s.bytes = 0;
  }

  /** The template of site `key` learnt from `pages`: at once, or once their blocks come back from the blocks source. */
  private learn(key: string, pages: Sampled[]): LearntTemplate {
    const t = new LearntTemplate();
    const finish = () => {
      const offsets = new Uint32Array(pages.length + 1);
      pages.forEach((p, k) => { offsets[k + 1] = offsets[k] + p.blocks!.values.length; });
      const total = offsets[pages.length];
      const blocks: BlockFingerprints = { values: new BigUint64Array(total), offsets, tokens: new Uint32Array(total), links: new Uint32Array(total) };
      pages.forEach((p, k) => { blocks.values.set(p.blocks!.values, offsets[k]); blocks.tokens.set(p.blocks!.tokens, offsets[k]); blocks.links.set(p.blocks!.links, offsets[k]); });
      const rows = Uint32Array.from(pages, (_, k) => k);
      const table = templateTable(blocks, rows, this.share);
      // a light template stays on the pages: they are sketched whole
      t.site = siteTemplate(key, blocks, rows, table, this.heavy);
      t.table = t.site.heavy ? table : undefined;
      t.learnt = table;
      t.done = true;
    };
    // blocks not known nor coming yet: from the source, or computed here
    const todo = pages.filter((p) => !p.blocks && !p.computing);
    if (todo.length) {
      const docs = todo.map((p) => p.doc!);
      const coming = this.blocks?.(docs);
      if (coming === undefined) fill(todo, blockFingerprints(docs));
      else {
        const c = coming.then((b) => fill(todo, b));
        for (const p of todo) p.computing = c;
      }
    }
    const waits = new Set<Promise<void>>();
    for (const p of pages) if (!p.blocks) waits.add(p.computing!);
    if (waits.size === 0) finish();
    else {
      t.done = false;
      t.ready = Promise.all(waits).then(finish);
      // a template no page waits for (a host's fallback no site needed) must not fail the process
      t.ready.catch(() => undefined);
    }
    return t;
  }
}

/** Gives pages their blocks (row k of `b` is page k's) and lets their bytes go. */
function fill(pages: Sampled[], b: BlockFingerprints): void {
  pages.forEach((p, k) => {
    if (p.blocks) return;
    const from = b.offsets[k], to = b.offsets[k + 1];
    p.blocks = { values: b.values.subarray(from, to), tokens: b.tokens.subarray(from, to), links: b.links.subarray(from, to) };
    p.doc = undefined;
    p.computing = undefined;
  });
}

/** A released page whose template is known, as `add` returns it. */
function ready<T>(p: ReleasedPage<T>): ReadyPage<T> {
  if (!p.template.done) throw new ResembleError('E_OPTION', 'TemplateLearner: a template is still being learnt (its blocks come from elsewhere): use addDeferred / flushDeferred');
  return { doc: p.doc, host: p.host, item: p.item, table: p.template.table, learnt: p.template.learnt };
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
