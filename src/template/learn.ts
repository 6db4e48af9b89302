// Learning a host's template from its own pages: a block (docs/FORMATS.md "Content mode") found
// on at least max(3, ⌈share · pages⌉) of a bounded sample of the host's distinct pages is
// template. Pages with the same bytes count once, so a page served at several URLs does not
// make its own text look like template. The template is removed only where it is heavy: when it
// holds at least `heavy` of the sample's words; elsewhere pages are sketched whole, exactly as
// Broder's whole-page sketches. Sites too small to learn from get no table (NO_TABLE: only
// link-heavy blocks and the title are left out).
import { intOption, numberOption, optionError, rejectUnknown } from '../errors.js';
import { blockFingerprints, NO_TABLE, WHOLE_PAGE, type BlockFingerprints, type ContentTables } from '../sketch/content.js';
import { fingerprintMany } from '../sketch/rabin.js';
import type { DocInput } from '../sketch/input.js';
import { DEFAULT_LINK_DENSITY } from '../sketch/options.js';
import { enclosingSites } from './sites.js';
import { isRedirectStub } from './stub.js';

/** How templates are learnt. */
export interface TemplateOptions {
  /** Distinct pages of a host the template is learnt from: its first ones (a bounded sample). Default 16.
   *  Cost: one extra pass over the tags and tokens of the sampled pages. */
  sample?: number;
  /** A host's template is trusted once this many distinct pages of it were seen; a host with fewer gets
   *  none (its pages lose only their link-heavy blocks and title). Default 8. */
  trustAfter?: number;
  /** Share of the sampled pages a block must be on to be template, 0..1 (and at least 3 pages). Default 0.5. */
  share?: number;
  /** A site's template is removed only when it holds at least this share of its sampled pages' words
   *  (titles aside), 0..1; a lighter one is kept, and the site's pages are sketched whole. Default
   *  DEFAULT_HEAVY (0 removes every template found; 1 keeps all but templates that are whole pages). Cost: none. */
  heavy?: number;
}

/** The default of TemplateOptions.heavy: see docs/content-mode.md for the curves behind it. */
export const DEFAULT_HEAVY = 0.18;

/** TemplateOptions resolved. */
export interface TemplateParams {
  sample: number;
  trustAfter: number;
  share: number;
  heavy: number;
}

/** A block on fewer pages than this is never template, whatever the share. */
export const MIN_TEMPLATE_PAGES = 3;
const KNOWN = ['sample', 'trustAfter', 'share', 'heavy'] as const;

/** Validates template options and fills in the defaults. */
export function resolveTemplateOptions(o: TemplateOptions = {}): TemplateParams {
  if (o === null || typeof o !== 'object') throw optionError('template options', 'an object', o);
  rejectUnknown(o, KNOWN, 'templates');
  const trustAfter = intOption('trustAfter', o.trustAfter, 8, MIN_TEMPLATE_PAGES, 1 << 20);
  const sample = intOption('sample', o.sample, Math.max(16, trustAfter), 1, 1 << 20);
  if (sample < trustAfter) throw optionError('sample', `integer ≥ trustAfter (${trustAfter})`, sample);
  return { sample, trustAfter, share: numberOption('share', o.share, 0.5, 0, 1), heavy: numberOption('heavy', o.heavy, DEFAULT_HEAVY, 0, 1) };
}

/**
 * The template table of one host from its sampled pages' blocks (rows of `blocks`): the sorted
 * fingerprints of the blocks on at least max(3, ⌈share · pages⌉) of them.
 */
export function templateTable(blocks: BlockFingerprints, rows: ArrayLike<number>, share: number): BigUint64Array {
  let total = 0;
  for (let r = 0; r < rows.length; r++) total += blocks.offsets[rows[r] + 1] - blocks.offsets[rows[r]];
  // each page's distinct blocks, all pages together, sorted: a run of equal values is one block's page count
  const all = new BigUint64Array(total);
  let at = 0;
  for (let r = 0; r < rows.length; r++) {
    const page = blocks.values.slice(blocks.offsets[rows[r]], blocks.offsets[rows[r] + 1]).sort();
    for (let i = 0; i < page.length; i++) if (i === 0 || page[i] !== page[i - 1]) all[at++] = page[i];
  }
  const sorted = all.subarray(0, at).sort();
  const need = Math.max(MIN_TEMPLATE_PAGES, Math.ceil(share * rows.length - 1e-9));
  const out: bigint[] = [];
  for (let i = 0; i < sorted.length;) {
    let e = i + 1;
    while (e < sorted.length && sorted[e] === sorted[i]) e++;
    if (e - i >= need) out.push(sorted[i]);
    i = e;
  }
  return BigUint64Array.from(out);
}

/** What the sample of one site says about its template: how much of its pages it is. */
export interface SiteTemplate {
  /** The host, or `host/section`. */
  key: string;
  /** Distinct pages sampled. */
  sampled: number;
  /** Blocks in the template table. */
  blocks: number;
  /** Share of the sampled pages' tokens (titles aside) in template blocks, 0..1. */
  templateShare: number;
  /** Share of the sampled pages' tokens in link-heavy blocks that are not template, 0..1. */
  linkShare: number;
  /** Per sampled page, the share of its tokens in template blocks, in sample order. */
  pageShares: number[];
  /** True when templateShare ≥ the `heavy` option: the site's template is removed (its table is used). */
  heavy: boolean;
}

/** The statistics of a site's template from its sampled pages' blocks (rows of `blocks`) and its table. */
export function siteTemplate(key: string, blocks: BlockFingerprints, rows: ArrayLike<number>, table: BigUint64Array, heavy: number, linkPermille = Math.round(DEFAULT_LINK_DENSITY * 1000)): SiteTemplate {
  const inTable = new Set(table);
  const pageShares: number[] = [];
  let all = 0, template = 0, links = 0;
  for (let r = 0; r < rows.length; r++) {
    let pAll = 0, pTemplate = 0;
    for (let b = blocks.offsets[rows[r]]; b < blocks.offsets[rows[r] + 1]; b++) {
      const n = blocks.tokens[b];
      pAll += n;
      if (inTable.has(blocks.values[b])) pTemplate += n;
      else if (blocks.links[b] * 1000 > n * linkPermille) links += n;
    }
    all += pAll; template += pTemplate;
    pageShares.push(pAll ? pTemplate / pAll : 0);
  }
  const templateShare = all ? template / all : 0;
  return { key, sampled: rows.length, blocks: table.length, templateShare, linkShare: all ? links / all : 0, pageShares, heavy: table.length > 0 && templateShare >= heavy };
}

/** The template of one site learnt from its sampled pages' blocks (every row, in order): its table and what the sample showed. */
export function learnFromBlocks(blocks: BlockFingerprints, key: string, share: number, heavy: number): { table: BigUint64Array; site: SiteTemplate } {
  const rows = Uint32Array.from({ length: blocks.offsets.length - 1 }, (_, k) => k);
  const table = templateTable(blocks, rows, share);
  return { table, site: siteTemplate(key, blocks, rows, table, heavy) };
}

/** The template of one site learnt from its sampled pages (distinct, in order): `learnFromBlocks` of their blocks. */
export function learnFromPages(docs: ArrayLike<DocInput>, key: string, share: number, heavy: number): { table: BigUint64Array; site: SiteTemplate } {
  return learnFromBlocks(blockFingerprints(docs), key, share, heavy);
}

/** What learning found. */
export interface TemplateStats {
  hosts: number;
  /** Sections of hosts with enough pages to learn a template of their own. */
  sections: number;
  /** Hosts and sections with enough distinct pages for a trusted template. */
  trusted: number;
  /** Of those, the ones whose template is heavy (removed); the others' pages are sketched whole. */
  heavy: number;
  sampledPages: number;
  templateBlocks: number;
}

/**
 * Learnt templates: the tables to sketch with (a light template's table is empty: its pages are
 * WHOLE_PAGE), the host (or `host/section`) of each table, what each sample showed, and counts.
 */
export interface LearnedTemplates {
  tables: ContentTables;
  hosts: string[];
  /** Per table (aligned with `hosts`): its site's template statistics and whether it is heavy. */
  sites: SiteTemplate[];
  stats: TemplateStats;
}

/**
 * Learns templates in a first pass over bounded samples and assigns every document a table.
 * `hostOf[i]` names document i's site (any key: the caller decides; the commands use the URL's
 * host). With `sectionOf` (e.g. the first directory of the URL path), a section of a host with at
 * least `trustAfter` distinct pages learns a template of its own from its first `sample` ones, and
 * its pages use it: one host often serves several sites (an archive of manuals under /python/,
 * /django/, …). Other pages use their host's template, learnt from the host's first pages. A
 * section nested in another (`python/library` in `python`; template/sites.ts) too small to learn
 * from takes that section's template before its host's. A
 * page whose site's template is light (under `heavy`) is WHOLE_PAGE: sketched whole; one whose
 * site has fewer than `trustAfter` distinct pages is NO_TABLE.
 */
export function learnTemplates(docs: ArrayLike<DocInput>, hostOf: ArrayLike<string>, options?: TemplateOptions, sectionOf?: ArrayLike<string>): LearnedTemplates {
  const o = resolveTemplateOptions(options);
  const n = docs.length;
  if (hostOf.length !== n) throw optionError('hostOf', `${n} hosts (one per document)`, `${hostOf.length}`);
  if (sectionOf !== undefined && sectionOf.length !== n) throw optionError('sectionOf', `${n} sections (one per document)`, `${sectionOf.length}`);
  // Groups: each host, and each (host, section) of a host with more than one section.
  const byHost = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const l = byHost.get(hostOf[i]);
    if (l) l.push(i); else byHost.set(hostOf[i], [i]);
  }
  const groups: Array<[string, number[]]> = [];
  for (const [host, list] of byHost) {
    groups.push([host, list]);
    if (!sectionOf) continue;
    const bySection = new Map<string, number[]>();
    for (const d of list) { const l = bySection.get(sectionOf[d]); if (l) l.push(d); else bySection.set(sectionOf[d], [d]); }
    if (bySection.size > 1) for (const [sec, l] of bySection) if (l.length >= o.trustAfter) groups.push([`${host}/${sec}`, l]);
  }
  // The samples: each group's first pages, identical bytes once, until `sample` distinct ones.
  const fp = new Map<number, bigint>();
  const fingerprintsOf = (list: number[]) => {
    const missing = list.filter((d) => !fp.has(d));
    if (missing.length) fingerprintMany(missing.map((d) => docs[d])).forEach((f, k) => fp.set(missing[k], f));
    return list.map((d) => fp.get(d)!);
  };
  const samples: number[][] = [];
  for (const [, list] of groups) {
    const picked: number[] = [];
    const seen = new Set<bigint>();
    for (let at = 0; at < list.length && picked.length < o.sample;) {
      const chunk = list.slice(at, at + o.sample - picked.length);
      at += chunk.length;
      // redirect stubs are not among a site's first pages (stub.ts)
      fingerprintsOf(chunk).forEach((f, k) => { if (!seen.has(f) && !isRedirectStub(docs[chunk[k]])) { seen.add(f); picked.push(chunk[k]); } });
    }
    samples.push(picked);
  }
  // Block fingerprints once per sampled page, whatever the number of samples it is in.
  const row = new Map<number, number>();
  const sampled: number[] = [];
  for (const picked of samples) for (const d of picked) if (!row.has(d)) { row.set(d, sampled.length); sampled.push(d); }
  const blocks = blockFingerprints(sampled.map((d) => docs[d]));
  const tables: BigUint64Array[] = [];
  const hosts: string[] = [];
  const sites: SiteTemplate[] = [];
  const tableOf = new Map<string, number>();
  let trusted = 0, heavy = 0, templateBlocks = 0;
  groups.forEach(([key], g) => {
    if (samples[g].length < o.trustAfter) return;
    const rows = samples[g].map((d) => row.get(d)!);
    const t = templateTable(blocks, rows, o.share);
    const site = siteTemplate(key, blocks, rows, t, o.heavy);
    tableOf.set(key, tables.length);
    tables.push(site.heavy ? t : new BigUint64Array(0)); hosts.push(key); sites.push(site);
    trusted++;
    if (site.heavy) { heavy++; templateBlocks += t.length; }
  });
  const offsets = new Uint32Array(tables.length + 1);
  tables.forEach((t, k) => { offsets[k + 1] = offsets[k] + t.length; });
  const values = new BigUint64Array(offsets[tables.length]);
  tables.forEach((t, k) => values.set(t, offsets[k]));
  const docTable = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const t = sectionOf ? tableOfSite(tableOf, hostOf[i], sectionOf[i]) : tableOf.get(hostOf[i]);
    docTable[i] = t === undefined ? NO_TABLE : sites[t].heavy ? t : WHOLE_PAGE;
  }
  return { tables: { values, offsets, docTable }, hosts, sites, stats: { hosts: byHost.size, sections: groups.length - byHost.size, trusted, heavy, sampledPages: sampled.length, templateBlocks } };
}

/**
 * The table of a page of section `section` of `host` among `tableOf` (keyed by host and by
 * `host/section`): its section's, else that of the nearest section it is a folder of (enclosingSites), else its host's.
 */
export function tableOfSite(tableOf: ReadonlyMap<string, number>, host: string, section: string): number | undefined {
  const key = `${host}/${section}`;
  const own = tableOf.get(key);
  if (own !== undefined) return own;
  for (const k of enclosingSites(key)) { const t = tableOf.get(k); if (t !== undefined) return t; }
  return tableOf.get(host);
}
