// Templates learnt as a crawl arrives: the pages of a host are held until `trustAfter` distinct
// pages of it have come; its template is then learnt from those pages, frozen (so every page of
// the host is sketched against the same table), and the held pages and all later ones are
// released with it. Held pages are bounded in bytes: past the bound the host holding pages the
// longest is settled early, with a table when it has 3 distinct pages, without one otherwise. A
// host whose template is light (under `heavy`) has its pages sketched whole; one with too few pages
// to learn from gets an empty table (link-heavy blocks and the title still left out).
import { intOption, optionError } from '../errors.js';
import { WHOLE_PAGE, blockFingerprints, type ContentTables } from '../sketch/content.js';
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
}

/** The table of a host settled with too few pages to learn a template: no block is template, the link rule still applies. */
const NO_TEMPLATE = new BigUint64Array(0);

/** Options of a TemplateLearner: how templates are learnt (`sample` is not used: a host learns from its first `trustAfter` pages), and the bound on held pages. */
export interface LearnerOptions extends Omit<TemplateOptions, 'sample'> {
  /** Bytes of pages held while their hosts are learning, at most. Default 64 MiB. */
  maxHeldBytes?: number;
}

interface HostState<T> {
  held: Array<{ doc: DocInput; item: T }>;
  seen: Set<bigint>;
  bytes: number;
  settled: boolean;
  table: BigUint64Array | undefined;
  site?: SiteTemplate;
}

/** Learns each host's template from its first pages while a crawl goes on; see the file comment. */
export class TemplateLearner<T = unknown> {
  private readonly hosts = new Map<string, HostState<T>>();
  private readonly trustAfter: number;
  private readonly share: number;
  private readonly heavy: number;
  private readonly maxHeld: number;
  private heldBytes = 0;

  constructor(options: LearnerOptions = {}) {
    if (options === null || typeof options !== 'object') throw optionError('learner options', 'an object', options);
    const { maxHeldBytes, ...rest } = options;
    if ('sample' in rest) throw optionError('sample', 'no value for a TemplateLearner (it learns from the first trustAfter pages)', (rest as { sample: unknown }).sample);
    const o = resolveTemplateOptions(rest);
    this.trustAfter = o.trustAfter;
    this.share = o.share;
    this.heavy = o.heavy;
    this.maxHeld = intOption('maxHeldBytes', maxHeldBytes, 64 << 20, 1, 2 ** 52);
  }

  /** Takes one page of `host`; returns the pages now ready to sketch (this one, or a host's held pages once it is trusted). */
  add(doc: DocInput, host: string, item: T): ReadyPage<T>[] {
    const bad = checkDoc(doc);
    if (bad) throw optionError('doc', 'a string or Uint8Array', bad);
    let h = this.hosts.get(host);
    if (!h) { h = { held: [], seen: new Set(), bytes: 0, settled: false, table: undefined }; this.hosts.set(host, h); }
    if (h.settled) return [{ doc, host, item, table: h.table }];
    h.held.push({ doc, item });
    h.seen.add(fingerprint(doc));
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

  /** Releases every held page: hosts with fewer than trustAfter distinct pages get a table only with 3 of them. */
  flush(): ReadyPage<T>[] {
    const out: ReadyPage<T>[] = [];
    for (const [name, h] of this.hosts) if (!h.settled && h.held.length) out.push(...this.settle(name, h, false));
    return out;
  }

  /** The frozen template table of a host (undefined while it is learning or when its template is light; empty when it had too few pages to learn one). */
  table(host: string): BigUint64Array | undefined {
    return this.hosts.get(host)?.table;
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

  private settle(host: string, h: HostState<T>, early = true): ReadyPage<T>[] {
    // distinct pages only, as learnTemplates counts them
    const distinct: DocInput[] = [];
    const seen = new Set<bigint>();
    for (const p of h.held) { const f = fingerprint(p.doc); if (!seen.has(f)) { seen.add(f); distinct.push(p.doc); } }
    const enough = distinct.length >= this.trustAfter || (early && distinct.length >= MIN_TEMPLATE_PAGES);
    if (enough) {
      const blocks = blockFingerprints(distinct);
      const rows = Uint32Array.from(distinct, (_, k) => k);
      const table = templateTable(blocks, rows, this.share);
      // a light template stays on the pages: they are sketched whole
      h.site = siteTemplate(host, blocks, rows, table, this.heavy);
      if (h.site.heavy) h.table = table;
    } else h.table = NO_TEMPLATE;
    // a host flushed before it had trustAfter pages keeps learning no more: it is settled with no template blocks
    h.settled = true;
    this.heldBytes -= h.bytes;
    const out = h.held.map((p) => ({ doc: p.doc, host, item: p.item, table: h.table }));
    h.held = []; h.seen = new Set(); h.bytes = 0;
    return out;
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
