// Templates learnt as a crawl arrives: the pages of a site (a host, or a section of one) are held
// until `trustAfter` distinct pages of it have come (redirect stubs held but not counted, stub.ts); its template is then learnt from those pages,
// frozen (so every page of the site is sketched against the same table), and the held pages and
// all later ones are released with it. A site that never gets that many pages (a section of a few
// pages: /2019/, /category/, /about.html) falls back, when it is settled, on its host's template:
// learnt from a bounded sample of the host's pages across its sites (the first `sample` distinct
// ones settled), as `learnTemplates` does for sections in one pass. Held pages are bounded in bytes:
// past the bound the site holding pages the longest is settled early (its host's template, else
// its own with 3 distinct pages, else none). A site that is a folder of another (sites.ts) falls
// back on that site's template first. A site whose template is light (under `heavy`) has its
// pages sketched whole; one with too few pages to learn from, on a host with too few too, gets an
// empty table (link-heavy blocks and the title still left out).
import { ResembleError, intOption, optionError } from '../errors.js';
import { WHOLE_PAGE, blockFingerprints, type BlockFingerprints, type ContentTables } from '../sketch/content.js';
import { fingerprint } from '../sketch/rabin.js';
import { byteBound, checkDoc, type DocInput } from '../sketch/input.js';
import { sketchMany, type SketchManyOptions } from '../sketch/sketch.js';
import type { SketchSet } from '../sketch/sketch-set.js';
import { enclosingSites } from './sites.js';
import { isRedirectStub } from './stub.js';
import { MIN_TEMPLATE_PAGES, learnFromBlocks, resolveTemplateOptions, type SiteTemplate, type TemplateOptions } from './learn.js';

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
 * A site's template as learnt from its sample: known at once when it is learnt where the learner
 * runs, or once it comes back from elsewhere (a worker pool; see the learner's template source).
 * The same object for every site that shares the template.
 */
export class LearntTemplate {
  /** The table to sketch with: undefined when the template is light (pages sketched whole), empty when none was learnt. */
  table: BigUint64Array | undefined = NO_TEMPLATE;
  /** The table learnt, light or heavy (empty when none was). */
  learnt: BigUint64Array = NO_TEMPLATE;
  /** What the sample showed (undefined when no template was learnt). */
  site: SiteTemplate | undefined;
  /** False until the table is known; `ready` then settles (rejected when it could not be learnt). */
  done = true;
  ready: Promise<void> | undefined;

  /** Takes what was learnt from a sample; sets the tables (a light template's pages are sketched whole). */
  set(learnt: { table: BigUint64Array; site: SiteTemplate }): void {
    this.site = learnt.site;
    this.table = learnt.site.heavy ? learnt.table : undefined;
    this.learnt = learnt.table;
    this.done = true;
  }
}

/**
 * Where a held page of a site goes when the site settles: the site it belongs to now (a SiteRouter's
 * route, sites.ts), or the same site. Called once per held page per settling.
 */
export type Reroute<T> = (site: string, item: T, doc: DocInput) => string;

/** The template of sites settled with too few pages to learn one, on hosts with too few as well. */
const NONE = new LearntTemplate();

/**
 * Where a learner has a site's template learnt from its sampled pages: a promise of
 * `learnFromPages(docs, how.key, how.share, how.heavy)` computed elsewhere (a worker pool), or
 * undefined to have the learner learn it on its own thread.
 */
export type TemplateSource = (docs: DocInput[], how: { key: string; share: number; heavy: number }) => Promise<{ table: BigUint64Array; site: SiteTemplate }> | undefined;

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

/** One page of a host's sample: its bytes, or its blocks once the sample was learnt from while kept (many pages per call). */
interface SamplePage {
  doc?: DocInput;
  /** byteBound of its bytes. */
  bound: number;
  blocks?: { values: BigUint64Array; tokens: Uint32Array; links: Uint32Array };
}

/** A host's sample for the fallback template: its first `sample` distinct pages, in arrival order. */
interface HostSample {
  pages: SamplePage[];
  seen: Set<bigint>;
  bytes: number;
  /** The fallback learnt from the sample as it stood (dropped when a page is added); null when the sample was too small. */
  cached?: LearntTemplate | null;
  /** Set once the sample is full (or frozen by the bound): the host's template, undefined when its sample was too small. */
  fallback?: LearntTemplate;
  frozen: boolean;
}

/** What the learner holds for one host (or site) until its template is trusted. */
interface HostState<T> {
  /** Pages held, with their fingerprints (their identity among the site's distinct pages; undefined for a redirect stub, which does not count). */
  held: Array<{ doc: DocInput; item: T; fp: bigint | undefined }>;
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
  /** Distinct pages a site is learnt from (TemplateOptions.trustAfter). */
  readonly trustAfter: number;
  private readonly sample: number;
  private readonly maxSample: number;
  private sampleBytes = 0;
  private readonly share: number;
  private readonly heavy: number;
  private readonly maxHeld: number;
  private heldBytes = 0;

  /**
   * Takes the options and, for the streaming pipeline, where templates are learnt (default: here,
   * at once). With a source that learns them elsewhere, use `addDeferred` and `flushDeferred`:
   * what is learnt and which pages are released when is the same either way.
   */
  constructor(options: LearnerOptions = {}, private readonly source?: TemplateSource, private readonly reroute?: Reroute<T>) {
    if (options === null || typeof options !== 'object') throw optionError('learner options', 'an object', options);
    const { maxHeldBytes, maxSampleBytes, ...rest } = options;
    const o = resolveTemplateOptions(rest);
    this.trustAfter = o.trustAfter;
    this.sample = o.sample;
    this.maxSample = intOption('maxSampleBytes', maxSampleBytes, 32 << 20, 0, 2 ** 52);
    this.share = o.share;
    this.heavy = o.heavy;
    this.maxHeld = intOption('maxHeldBytes', maxHeldBytes, 64 << 20, 1, 2 ** 52);
    if (source !== undefined && typeof source !== 'function') throw optionError('source', 'a function', source);
    if (reroute !== undefined && typeof reroute !== 'function') throw optionError('reroute', 'a function', reroute);
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
   * As `add`, but a released page's template may still be being learnt (elsewhere, by the
   * template source): sketch it once `template.done` (`await template.ready`).
   */
  addDeferred(doc: DocInput, host: string, item: T, group: string = host): ReleasedPage<T>[] {
    const bad = checkDoc(doc);
    if (bad) throw optionError('doc', 'a string or Uint8Array', bad);
    let h = this.hosts.get(host);
    if (!h) { h = { held: [], seen: new Set(), bytes: 0, settled: false }; this.hosts.set(host, h); this.hostOfSite.set(host, group); }
    // the page's fingerprint (its identity among the sample's distinct pages) only while it can count
    let f: bigint | undefined;
    const fp = () => (f ??= fingerprint(doc));
    // a redirect stub is held and released with its site, but is not one of its first pages
    const stub = isRedirectStub(doc);
    if (!stub && !this.samples.get(group)?.frozen) this.addToSample(group, doc, fp());
    if (h.settled) return [{ doc, host, item, template: h.template! }];
    h.held.push({ doc, item, fp: stub ? undefined : fp() });
    if (!stub) h.seen.add(fp());
    const b = byteBound(doc);
    h.bytes += b; this.heldBytes += b;
    const out: ReleasedPage<T>[] = [];
    if (h.seen.size >= this.trustAfter) out.push(...this.settle(host, h, true, false));
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
   * The template a page of site `host` (of the host `group`) added now is released with at once,
   * when the learner would keep nothing of it (its site settled, its host's sample full); else
   * undefined. Such a page need not be added: `addDeferred` would hand it straight back.
   */
  settled(host: string, group: string = host): LearntTemplate | undefined {
    const h = this.hosts.get(host);
    return h?.settled && this.samples.get(group)?.frozen ? h.template : undefined;
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
    const t = h?.settled ? h.template : this.enclosingTemplate(host) ?? this.hostTemplate(this.hostOfSite.get(host) ?? host);
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

  /**
   * Settles a site: its template is learnt (or its fallback taken) and its held pages released.
   * With a reroute, held pages that now belong to another site (a folder of this one, once its
   * first pages showed it: sites.ts) move there first; unless `force` (the held bytes' bound, the
   * flush), what stays waits for more pages when it is no longer `trustAfter` distinct ones.
   */
  private settle(host: string, h: HostState<T>, early = true, force = true): ReleasedPage<T>[] {
    const group = this.hostOfSite.get(host) ?? host;
    const out: ReleasedPage<T>[] = [];
    if (this.reroute) {
      const moved: Array<{ doc: DocInput; item: T; to: string }> = [];
      const stay = h.held.filter((p) => {
        const to = this.reroute!(host, p.item, p.doc);
        if (to === host) return true;
        moved.push({ doc: p.doc, item: p.item, to });
        return false;
      });
      if (moved.length) {
        let bytes = 0;
        for (const p of stay) bytes += byteBound(p.doc);
        this.heldBytes -= h.bytes - bytes;
        h.held = stay; h.bytes = bytes;
        h.seen = new Set();
        for (const p of stay) if (p.fp !== undefined) h.seen.add(p.fp);
        for (const m of moved) out.push(...this.addDeferred(m.doc, m.to, m.item, group));
        if (h.settled || (!force && h.seen.size < this.trustAfter)) return out;
      }
    }
    // the distinct held pages, as learnTemplates counts them
    const distinct: SamplePage[] = [];
    const seen = new Set<bigint>();
    for (const p of h.held) if (p.fp !== undefined && !seen.has(p.fp)) { seen.add(p.fp); distinct.push({ doc: p.doc, bound: 0 }); }
    if (distinct.length >= this.trustAfter) h.template = this.learn(host, distinct);
    else {
      // too few pages of its own: the host's template when its sample is large enough
      const fallback = this.enclosingTemplate(host) ?? this.hostTemplate(group);
      if (fallback) h.template = fallback;
      else if (early && distinct.length >= MIN_TEMPLATE_PAGES) h.template = this.learn(host, distinct);
      else h.template = NONE;
    }
    // a site settled before it had trustAfter pages keeps learning no more
    h.settled = true;
    this.heldBytes -= h.bytes;
    const template = h.template;
    for (const p of h.held) out.push({ doc: p.doc, host, item: p.item, template });
    h.held = []; h.seen = new Set(); h.bytes = 0;
    return out;
  }

  /** The template of the nearest settled site this one lies under (enclosingSites: the manual a small folder of it belongs to), if one was learnt. */
  private enclosingTemplate(site: string): LearntTemplate | undefined {
    for (const key of enclosingSites(site)) {
      const e = this.hosts.get(key);
      if (e?.settled && e.template !== NONE) return e.template;
    }
    return undefined;
  }

  /** Adds a page to its host's sample until the sample is full; past the byte bound, the oldest samples are frozen as they stand. */
  private addToSample(group: string, doc: DocInput, f: bigint): void {
    let s = this.samples.get(group);
    if (!s) { s = { pages: [], seen: new Set(), bytes: 0, frozen: false }; this.samples.set(group, s); }
    if (s.frozen || s.seen.has(f)) return;
    s.seen.add(f);
    const b = byteBound(doc);
    s.pages.push({ doc, bound: b });
    s.cached = undefined;
    s.bytes += b; this.sampleBytes += b;
    if (s.pages.length >= this.sample) this.freeze(group, s);
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
   * The template of a host's sample as it stands (undefined under trustAfter pages). A sample that
   * is kept (`keep`) holds its pages' blocks from now on, not their bytes: they are computed here
   * and the sample's bytes counted as blocks before the bound is checked again. A sample about to
   * be let go is learnt from as it is (by the template source when there is one).
   */
  private learnSample(group: string, s: HostSample, keep: boolean): LearntTemplate | undefined {
    if (s.pages.length < this.trustAfter) return undefined;
    if (keep) {
      const todo = s.pages.filter((p) => !p.blocks);
      if (todo.length) {
        const got = blockFingerprints(todo.map((p) => p.doc!));
        todo.forEach((p, r) => {
          const a = got.offsets[r], b = got.offsets[r + 1];
          p.blocks = { values: got.values.slice(a, b), tokens: got.tokens.slice(a, b), links: got.links.slice(a, b) };
          p.doc = undefined;
          const after = (b - a) * 16 + 64;
          s.bytes += after - p.bound; this.sampleBytes += after - p.bound;
        });
      }
    }
    return this.learn(group, s.pages.slice());
  }

  /** Fixes a host's fallback as its sample stands and lets the sample go. */
  private freeze(group: string, s: HostSample): void {
    s.fallback = s.cached === undefined ? this.learnSample(group, s, false) : s.cached ?? undefined;
    s.frozen = true;
    this.sampleBytes -= s.bytes;
    s.pages = []; s.seen = new Set(); s.bytes = 0;
  }

  /**
   * The template of site `key` learnt from `pages` (their bytes, or blocks already computed): by
   * the template source when it takes them (every page still bytes), else here and at once.
   */
  private learn(key: string, pages: SamplePage[]): LearntTemplate {
    const t = new LearntTemplate();
    const coming = pages.every((p) => !p.blocks) ? this.source?.(pages.map((p) => p.doc!), { key, share: this.share, heavy: this.heavy }) : undefined;
    if (coming) {
      t.done = false;
      t.ready = coming.then((learnt) => t.set(learnt));
      // a template no page waits for (a host's fallback no site needed) must not fail the process
      t.ready.catch(() => undefined);
      return t;
    }
    // the blocks of the pages still bytes, then every page's blocks in order
    const todo = pages.filter((p) => !p.blocks);
    const got = todo.length ? blockFingerprints(todo.map((p) => p.doc!)) : undefined;
    if (todo.length === pages.length) { t.set(learnFromBlocks(got!, key, this.share, this.heavy)); return t; }
    const offsets = new Uint32Array(pages.length + 1);
    let r = 0;
    const rows = pages.map((p) => {
      if (p.blocks) return p.blocks;
      const a = got!.offsets[r], b = got!.offsets[++r];
      return { values: got!.values.subarray(a, b), tokens: got!.tokens.subarray(a, b), links: got!.links.subarray(a, b) };
    });
    rows.forEach((b, k) => { offsets[k + 1] = offsets[k] + b.values.length; });
    const total = offsets[pages.length];
    const blocks: BlockFingerprints = { values: new BigUint64Array(total), offsets, tokens: new Uint32Array(total), links: new Uint32Array(total) };
    rows.forEach((b, k) => { blocks.values.set(b.values, offsets[k]); blocks.tokens.set(b.tokens, offsets[k]); blocks.links.set(b.links, offsets[k]); });
    t.set(learnFromBlocks(blocks, key, this.share, this.heavy));
    return t;
  }
}

/** A released page whose template is known, as `add` returns it. */
function ready<T>(p: ReleasedPage<T>): ReadyPage<T> {
  if (!p.template.done) throw new ResembleError('E_OPTION', 'TemplateLearner: a template is still being learnt elsewhere: use addDeferred / flushDeferred');
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
