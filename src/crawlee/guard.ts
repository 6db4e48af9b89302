// The near-duplicate guard of a crawl's request handler: sketch the page, ask the index for an
// earlier page it resembles, and either name that page or index this one. Query and insert cost
// the same per page whatever the crawl's size (the index's two-tier postings).
//
// Content mode (`content: 'main'`; whole pages by default): pages are compared by their content, each site's template (host
// and first directory) left out. A site's template is learnt from its first `trustAfter` distinct
// pages (8 by default) and trusted from then on. Before that, its pages are answered on
// provisional sketches made without a template (whole pages);
// once the template is trusted, the site's provisionally indexed pages are sketched again against
// it and replace their provisional sketches, so later pages are compared with content sketches.
import { ResembleError, optionError, rejectUnknown } from '../errors.js';
import { ResembleIndex, type IndexOptions } from '../cluster/resemble-index.js';
import { sketchOptionsFor } from '../cluster/records.js';
import { packTables, siteOfUrl } from '../pipeline/content.js';
import { WHOLE_PAGE } from '../sketch/content.js';
import type { SketchOptions } from '../sketch/options.js';
import { sketchMany } from '../sketch/sketch.js';
import type { SketchSet } from '../sketch/sketch-set.js';
import type { DocInput } from '../sketch/input.js';
import { TemplateLearner, type LearnerOptions } from '../template/learner.js';

/** Options of `DuplicateGuard`: the index's (sketch parameters, `content` 'page' by default, and policy), or an index to go on with. */
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
  /** URLs indexed on a provisional sketch, waiting for their site's template. */
  private readonly waiting = new Set<string>();

  constructor(options: DuplicateGuardOptions = {}) {
    if (options === null || typeof options !== 'object') throw new ResembleError('E_OPTION', 'expected an options object for DuplicateGuard');
    const { index, templates, ...rest } = options;
    if (index !== undefined) {
      if (!(index instanceof ResembleIndex)) throw new ResembleError('E_OPTION', 'expected a ResembleIndex for index');
      rejectUnknown(rest, [], 'DuplicateGuard (with an index, its own parameters and policy apply)');
      this.index = index;
    } else this.index = new ResembleIndex(rest);
    if (this.index.params.content === 'main') this.learner = new TemplateLearner<string>(templates ?? {});
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
    let sk: SketchSet;
    if (!this.learner) sk = sketchMany([html], sketchOptionsFor(this.index.params));
    else {
      const site = siteOfUrl(url);
      if (this.index.templates.has(site)) sk = this.sketchFor(html, this.index.templates.get(site));
      else {
        const ready = this.learner.add(html, site, url);
        // the pages released: this site's once it is trusted, or a site settled early (held bytes bound)
        for (const r of ready) this.index.templates.set(r.host, r.table);
        const settled = ready.some((r) => r.item === url);
        // the site's pages indexed provisionally are sketched again against its template
        for (const r of ready) {
          if (r.item === url || !this.waiting.delete(r.item)) continue;
          this.index.removeUrl(r.item);
          this.index.add(this.sketchFor(r.doc, r.table), { urls: [r.item] });
        }
        if (!settled) this.provisional++;
        sk = this.sketchFor(html, this.index.templates.get(site));
        if (!settled) return this.answer(url, sk, true);
      }
    }
    return this.answer(url, sk, false);
  }

  private answer(url: string, sk: SketchSet, provisional: boolean): string | null {
    // The index's common-shingle cap, as when it joins clusters: values in more pages than that
    // (boilerplate) do not make candidates, so the cost per page stays flat as the crawl grows.
    const hit = this.index.query(sk.get(0), { limit: 1, commonCap: this.index.options.commonCap })[0];
    const match = hit ? (hit.key ?? `#${hit.doc}`) : null;
    if (match === null) {
      this.index.add(sk, { urls: [url] });
      if (provisional) this.waiting.add(url);
    } else this.duplicates++;
    for (const f of this.observers) f(url, match);
    return match;
  }

  /** One page's content sketch against its site's table (none: its site's template is light or not learnt yet, the page is sketched whole). */
  private sketchFor(html: DocInput, table: BigUint64Array | undefined): SketchSet {
    const templates = table ? packTables([table], Uint32Array.of(0)) : packTables([], Uint32Array.of(WHOLE_PAGE));
    return sketchMany([html], { ...sketchOptionsFor(this.index.params), templates });
  }
}
