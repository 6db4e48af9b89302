// Content mode in the streaming pipeline: the template tables the learner released pages with,
// gathered batch by batch. Each batch gets the tables of its own pages (as `sketchReady` builds
// them); the crawl keeps every table once and, per DocId, the table its page was sketched against.
import { hostOfUrl, parseUrl } from '../graph/url.js';
import { WHOLE_PAGE, type ContentTables } from '../sketch/content.js';
import { sectionOfPath, sectionOfUrl } from './sketch.js';


/** The templates a crawl was sketched against in content mode. */
export interface CrawlTemplates {
  /** Every table once; docTable is indexed by DocId (WHOLE_PAGE: no heavy template, sketched whole). */
  tables: ContentTables;
  /** The site (host) of each table. */
  sites: string[];
  /** Every site the crawl's pages were released for, with its table (undefined: settled without one). */
  bySite: Map<string, BigUint64Array | undefined>;
  /** Sites seen, sites with a trusted template (with template blocks), pages held while their site was learning, template blocks in all tables. */
  stats: { sites: number; trusted: number; heldPages: number; templateBlocks: number };
}

/** A page's template as the pipeline releases it: a learner's (known once `done`), or a settled site's table. */
export interface TableRef {
  table: BigUint64Array | undefined;
}

/** Packs tables (each ascending) into the values/offsets columns of ContentTables. */
export function packTables(tables: readonly BigUint64Array[], docTable: Uint32Array): ContentTables {
  const offsets = new Uint32Array(tables.length + 1);
  tables.forEach((t, k) => { offsets[k + 1] = offsets[k] + t.length; });
  const values = new BigUint64Array(offsets[tables.length]);
  tables.forEach((t, k) => values.set(t, offsets[k]));
  return { values, offsets, docTable };
}

/**
 * Gathers the tables of released pages: per batch for sketching, and for the whole crawl. Pages
 * are recorded as they are released, with their template (which may still be being learnt); the
 * crawl's tables are in the order of the pages first released with them, whenever they were sketched.
 */
export class ContentBatches {
  /** Every page's template once, in order of the first page released with it, and the site of that page. */
  private readonly refs: TableRef[] = [];
  private readonly refSites: string[] = [];
  private readonly refIndex = new Map<TableRef, number>();
  /** Sites in order of their first page released, with their template. */
  private readonly seen = new Map<string, TableRef>();
  /** Per DocId: its template's index in `refs`. */
  private docRef: number[] = [];
  heldPages = 0;

  /** Takes a page released (DocId `id`, its site and its template), in release order. */
  release(id: number, site: string, ref: TableRef): void {
    if (!this.seen.has(site)) this.seen.set(site, ref);
    let r = this.refIndex.get(ref);
    if (r === undefined) { r = this.refs.length; this.refIndex.set(ref, r); this.refs.push(ref); this.refSites.push(site); }
    this.docRef[id] = r;
  }

  /** Takes one batch of pages' tables; returns the tables to sketch them against (the batch's own tables only). */
  batch(pages: readonly { table: BigUint64Array | undefined }[]): ContentTables {
    const local = new Map<BigUint64Array, number>();
    const tables: BigUint64Array[] = [];
    const docTable = new Uint32Array(pages.length);
    pages.forEach((p, i) => {
      if (!p.table) { docTable[i] = WHOLE_PAGE; return; }
      let t = local.get(p.table);
      if (t === undefined) { t = tables.length; local.set(p.table, t); tables.push(p.table); }
      docTable[i] = t;
    });
    return packTables(tables, docTable);
  }

  /** The crawl's templates, for `n` documents (every template known by now). */
  result(n: number): CrawlTemplates {
    // each table once, in order of the first page released with it (templates that are one table count once)
    const index = new Map<BigUint64Array, number>();
    const tables: BigUint64Array[] = [];
    const sites: string[] = [];
    const global = this.refs.map((ref, r) => {
      const t = ref.table;
      if (!t) return WHOLE_PAGE;
      let g = index.get(t);
      if (g === undefined) { g = tables.length; index.set(t, g); tables.push(t); sites.push(this.refSites[r]); }
      return g;
    });
    const docTable = new Uint32Array(n).fill(WHOLE_PAGE);
    this.docRef.forEach((r, d) => { if (d < n) docTable[d] = global[r]; });
    let templateBlocks = 0;
    for (const t of tables) templateBlocks += t.length;
    const bySite = new Map<string, BigUint64Array | undefined>();
    for (const [site, ref] of this.seen) bySite.set(site, ref.table);
    return {
      tables: packTables(tables, docTable), sites, bySite,
      stats: { sites: this.seen.size, trusted: tables.filter((t) => t.length > 0).length, heldPages: this.heldPages, templateBlocks },
    };
  }
}

/** The tables of one page of the crawl (one table, or none), as sketchMany takes them for a batch of that page alone. */
export function tablesOfPage(t: CrawlTemplates, d: number): ContentTables {
  const k = t.tables.docTable[d];
  if (k === WHOLE_PAGE || k === undefined) return { values: new BigUint64Array(0), offsets: new Uint32Array(1), docTable: Uint32Array.of(WHOLE_PAGE) };
  return { values: t.tables.values.slice(t.tables.offsets[k], t.tables.offsets[k + 1]), offsets: Uint32Array.of(0, t.tables.offsets[k + 1] - t.tables.offsets[k]), docTable: Uint32Array.of(0) };
}

/**
 * The site of a URL for template learning: its host and the first directory of its path
 * (`docs.example.com/python`). One host often serves several sites (an archive of manuals under
 * /python/, /django/, …), each with its own template; learnt per host, the template of the first
 * one would be applied to all (on the realistic documentation crawl: F1 0.42 against 0.98). It is
 * where a SiteRouter starts a page (template/sites.ts), which splits it further by manual root.
 */
export function siteOfUrl(url: string): string {
  return `${hostOfUrl(url)}/${sectionOfUrl(url)}`;
}

/** The site (`siteOfUrl`) and the host (`hostOfUrl`) of a URL, from one parse of it. */
export function siteAndHostOfUrl(url: string): { site: string; host: string } {
  const u = parseUrl(url);
  if (!u) return { site: '/', host: '' };
  return { site: `${u.host}/${sectionOfPath(u.pathname)}`, host: u.host };
}

/** The tables of some pages of the crawl (DocIds `docs`), as sketchMany takes them for a batch of those pages in that order. */
export function tablesOfPages(t: CrawlTemplates, docs: readonly number[]): ContentTables {
  const local = new Map<number, number>();
  const tables: BigUint64Array[] = [];
  const docTable = Uint32Array.from(docs, (d) => {
    const k = t.tables.docTable[d];
    if (k === WHOLE_PAGE || k === undefined) return WHOLE_PAGE;
    let j = local.get(k);
    if (j === undefined) { j = tables.length; local.set(k, j); tables.push(t.tables.values.subarray(t.tables.offsets[k], t.tables.offsets[k + 1])); }
    return j;
  });
  return packTables(tables, docTable);
}
