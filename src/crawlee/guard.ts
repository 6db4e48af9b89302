// The near-duplicate guard of a crawl's request handler: sketch the page, ask the index for an
// earlier page it resembles, and either name that page or index this one. Query and insert cost
// the same per page whatever the crawl's size (the index's two-tier postings).
import { ResembleError, rejectUnknown } from '../errors.js';
import { ResembleIndex, type IndexOptions } from '../cluster/resemble-index.js';
import type { SketchOptions } from '../sketch/options.js';
import { sketch } from '../sketch/sketch.js';
import type { DocInput } from '../sketch/input.js';

/** Options of `DuplicateGuard`: the index's (sketch parameters and policy), or an index to go on with. */
export interface DuplicateGuardOptions extends SketchOptions, IndexOptions {
  /** An index to continue (a saved one, from `loadIndex`); its parameters and policy then apply. */
  index?: ResembleIndex;
}

/** What the guard saw: a page and the earlier page it duplicates (null when it was new). */
export type GuardObserver = (url: string, duplicateOf: string | null) => void;

/** Answers `isDuplicate(url, html)` page by page, indexing the pages that are new. */
export class DuplicateGuard {
  /** The index of every page found new (save it with `saveIndex` to resume a crawl). */
  readonly index: ResembleIndex;
  /** Pages looked at, and those found to duplicate an earlier one. */
  pages = 0;
  duplicates = 0;
  private readonly observers: GuardObserver[] = [];

  constructor(options: DuplicateGuardOptions = {}) {
    if (options === null || typeof options !== 'object') throw new ResembleError('E_OPTION', 'expected an options object for DuplicateGuard');
    const { index, ...rest } = options;
    if (index !== undefined) {
      if (!(index instanceof ResembleIndex)) throw new ResembleError('E_OPTION', 'expected a ResembleIndex for index');
      rejectUnknown(rest, [], 'DuplicateGuard (with an index, its own parameters and policy apply)');
      this.index = index;
    } else this.index = new ResembleIndex(rest);
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
    const sk = sketch(html, this.index.params);
    this.pages++;
    // The index's common-shingle cap, as when it joins clusters: values in more pages than that
    // (boilerplate) do not make candidates, so the cost per page stays flat as the crawl grows.
    const hit = this.index.query(sk, { limit: 1, commonCap: this.index.options.commonCap })[0];
    const match = hit ? (hit.key ?? `#${hit.doc}`) : null;
    if (match === null) this.index.add(sk, { urls: [url] });
    else this.duplicates++;
    for (const f of this.observers) f(url, match);
    return match;
  }
}
