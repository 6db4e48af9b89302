// The near-duplicate guard of a crawl's request handler: sketch the page, ask the index for an
// earlier page it resembles, and either name that page or index this one. Query and insert cost
// the same per page whatever the crawl's size (the index's two-tier postings).
//
// Content mode (`content: 'main'`, the default; `content: 'page'` compares whole pages): pages are
// compared by their content, each site's template (a manual root, template/sites.ts) left out. A site's
// template is learnt from its first `trustAfter` distinct pages (8 by default) and trusted from
// then on. Before that, its pages are answered on provisional sketches: against the template of
// their host when other sites of the host have taught one, else whole; once the site's template
// is trusted, its provisionally indexed pages are sketched again against it and replace their
// provisional sketches. A site whose template is light has its pages sketched whole (as `dups`
// does); they are also sketched without that light template and kept in a second index, so the
// same article under a light and under a heavy template still meets.
import { ResembleError, optionError, rejectUnknown } from '../errors.js';
import { ResembleIndex, sketchOptionsFor, type IndexOptions, type QueryHit } from '../cluster/index.js';
import { hostOfUrl } from '../graph/url.js';
import { packTables } from '../template/crawl-templates.js';
import { SiteRouter } from '../template/sites.js';
import { pageIdentity } from '../template/stub.js';
import { WHOLE_PAGE } from '../sketch/content-tables.js';
import type { SketchOptions } from '../sketch/options.js';
import { sketchMany } from '../sketch/sketch.js';
import type { SketchSet } from '../sketch/sketch-set.js';
import type { DocInput } from '../sketch/input.js';
import { TemplateLearner, type LearnerOptions } from '../template/learner.js';

/** Options of `DuplicateGuard`: the index's (sketch parameters, `content` 'main' by default, and policy), or an index to go on with. */
export interface DuplicateGuardOptions extends SketchOptions, IndexOptions {
  /** An index to continue (a saved one, from `loadIndex`); its parameters, policy and site templates then apply. */
  index?: ResembleIndex;
  /** content 'main': how each site's template is learnt (trustAfter, default 8; share; maxHeldBytes, default 64 MiB). */
  templates?: LearnerOptions;
}

/** What the guard saw: a page and the earlier page it duplicates (null when it was new). */
export type GuardObserver = (url: string, duplicateOf: string | null) => void;

/** Answers `isDuplicate(url, html)` page by page, indexing the pages that are new. */
export class DuplicateGuard {
  /** The index of every page found new (save it with `saveIndex` to resume a crawl; content mode saves the sites' templates with it). */
  readonly index: ResembleIndex;
  /** Pages looked at, and those found to duplicate an earlier one. */
  pages = 0;
  duplicates = 0;
  /** content 'main': pages answered on a provisional sketch, their site's template not trusted yet. */
  provisional = 0;
  private readonly observers: GuardObserver[] = [];
  private readonly learner?: TemplateLearner<string>;
  /** The site of each page (a site per manual root), in the order pages come. */
  private readonly router?: SiteRouter;
  /** URLs indexed on a provisional sketch, waiting for their site's template. */
  private readonly waiting = new Set<string>();
  /** content 'main': per site, the table learnt whether heavy or light (light ones are not left out of its pages' own sketches). */
  private readonly learnt = new Map<string, BigUint64Array>();
  /** content 'main': pages of light-template sites sketched without their template (see altSketch); not saved with the index. */
  private readonly alt: ResembleIndex;
  /** content 'main': per host, the provisional template its learning sites' pages were last sketched against. */
  private readonly provisionalOf = new Map<string, BigUint64Array>();

  constructor(options: DuplicateGuardOptions = {}) {
    if (options === null || typeof options !== 'object') throw new ResembleError('E_OPTION', 'expected an options object for DuplicateGuard');
    const { index, templates, ...rest } = options;
    if (index !== undefined) {
      if (!(index instanceof ResembleIndex)) throw new ResembleError('E_OPTION', 'expected a ResembleIndex for index');
      rejectUnknown(rest, [], 'DuplicateGuard (with an index, its own parameters and policy apply)');
      this.index = index;
    } else this.index = new ResembleIndex({ content: 'main', ...rest });
    this.alt = new ResembleIndex(this.index.params, this.index.options);
    if (this.index.params.content === 'main') {
      // a held page moves to the site it belongs to once its site's first pages are known (sites.ts)
      this.learner = new TemplateLearner<string>(templates ?? {}, undefined, (_site, url, doc) => this.router!.route(url, () => pageIdentity(doc)).site);
      this.router = new SiteRouter(this.learner.trustAfter);
    }
    else if (templates !== undefined) throw optionError('templates', "no value with content 'page' (templates apply to content 'main')", 'options');
  }

  /** Calls `f` for every page the guard looks at (the mirror learner listens here). */
  onPage(f: GuardObserver): void {
    this.observers.push(f);
  }

  /**
   * The URL of an earlier page this one resembles (by the index's threshold, containment policy
   * and common-shingle cap; the best match), or null after indexing this page under its URL.
   * Needs `await init()` first.
   */
  isDuplicate(url: string, html: DocInput): string | null {
    if (typeof url !== 'string') throw new ResembleError('E_INPUT', `isDuplicate: expected the page's URL as a string, got ${typeof url}`);
    this.pages++;
    if (!this.learner) return this.answer(url, sketchMany([html], sketchOptionsFor(this.index.params)), undefined, false);
    const site = this.router!.route(url, () => pageIdentity(html)).site;
    if (this.index.templates.has(site)) {
      const table = this.index.templates.get(site);
      return this.answer(url, this.sketchFor(html, table), this.altSketch(html, table, this.learnt.get(site)), false);
    }
    const ready = this.learner.add(html, site, url, hostOfUrl(url));
    // the pages released: this site's once it is trusted, or a site settled early (held bytes bound)
    for (const r of ready) { this.index.templates.set(r.host, r.table); this.learnt.set(r.host, r.learnt); }
    const settled = ready.some((r) => r.item === url);
    // the site's pages indexed provisionally are sketched again against its template
    for (const r of ready) {
      if (r.item === url || !this.waiting.delete(r.item)) continue;
      drop(this.index, r.item);
      drop(this.alt, r.item);
      this.store(r.item, this.sketchFor(r.doc, r.table), this.altSketch(r.doc, r.table, r.learnt));
    }
    if (settled) {
      const table = this.index.templates.get(site);
      return this.answer(url, this.sketchFor(html, table), this.altSketch(html, table, this.learnt.get(site)), false);
    }
    // still learning: a provisional sketch, against the host's template once the host has trustAfter pages
    this.provisional++;
    const host = hostOfUrl(url);
    const p = this.learner.provisional(site);
    if (p && this.provisionalOf.get(host) !== p.learnt) {
      // the host's template changed (it grows with its sample, then stays): its provisional pages follow it
      this.provisionalOf.set(host, p.learnt);
      for (const r of this.learner.heldOf(host)) {
        if (r.item === url || !this.waiting.has(r.item)) continue;
        drop(this.index, r.item);
        drop(this.alt, r.item);
        this.store(r.item, this.sketchFor(r.doc, p.table), this.altSketch(r.doc, p.table, p.learnt));
      }
    }
    return this.answer(url, this.sketchFor(html, p?.table), this.altSketch(html, p?.table, p?.learnt), true);
  }

  /**
   * A page sketched whole because its site's template is light (or not learnt) is also sketched
   * without that template, when one was learnt: the sketch it is compared with pages of sites whose
   * heavy template was left out (the same article under a light and under a heavy template).
   */
  private altSketch(html: DocInput, table: BigUint64Array | undefined, learnt: BigUint64Array | undefined): SketchSet | undefined {
    return table === undefined && learnt !== undefined && learnt.length > 0 ? this.sketchFor(html, learnt) : undefined;
  }

  private answer(url: string, sk: SketchSet, alt: SketchSet | undefined, provisional: boolean): string | null {
    // The index's common-shingle cap, as when it joins clusters: values in more pages than that
    // (boilerplate) do not make candidates, so the cost per page stays flat as the crawl grows.
    const q = { limit: 1, commonCap: this.index.options.commonCap };
    // its own sketch against every page's; its sketch without a light template against heavy-template pages
    // and against the light-template pages' sketches without theirs; a heavy-template page's against those too
    const hits: Array<QueryHit | undefined> = [this.index.query(sk.get(0), q)[0]];
    if (this.alt.size > 0) hits.push(this.alt.query((alt ?? sk).get(0), q)[0]);
    if (alt) hits.push(this.index.query(alt.get(0), q)[0]);
    let hit: QueryHit | undefined;
    for (const h of hits) if (h && (!hit || h.resemblance > hit.resemblance)) hit = h;
    const match = hit ? (hit.key ?? `#${hit.doc}`) : null;
    if (match === null) {
      this.store(url, sk, alt);
      if (provisional) this.waiting.add(url);
    } else this.duplicates++;
    for (const f of this.observers) f(url, match);
    return match;
  }

  private store(url: string, sk: SketchSet, alt: SketchSet | undefined): void {
    this.index.insertMany(sk, { keys: [url] });
    if (alt) this.alt.insertMany(alt, { keys: [url] });
  }

  /** One page's content sketch against its site's table (none: its site's template is light or not learnt yet, the page is sketched whole). */
  private sketchFor(html: DocInput, table: BigUint64Array | undefined): SketchSet {
    const templates = table ? packTables([table], Uint32Array.of(0)) : packTables([], Uint32Array.of(WHOLE_PAGE));
    return sketchMany([html], { ...sketchOptionsFor(this.index.params), templates });
  }
}

/** Takes an index and a key; removes the key's documents when it has any. */
function drop(index: ResembleIndex, key: string): void {
  if (index.has(key)) index.remove(key);
}
