// The guard, the mirror learner and the URL filter wired together for a crawl.
import { ResembleError, optionError } from '../errors.js';
import type { DocInput } from '../sketch/input.js';
import { init } from '../wasm/loader.js';
import { DuplicateGuard, type DuplicateGuardOptions } from './guard.js';
import { UrlFilter } from './filter.js';
import { MirrorLearner, type MirrorLearnerOptions, type MirrorRule, type UrlSkipper } from './mirror-learner.js';
import { UrlRules } from '../collections/url-rules/rules.js';

/** Options of `crawlDedup`: the guard's, the learner's, and URL sources to skip from the start. */
export interface CrawlDedupOptions extends DuplicateGuardOptions, MirrorLearnerOptions {
  /** Saved avoid-lists or other `{ shouldSkip(url) }` sources (e.g. an `AvoidList`). */
  avoid?: UrlSkipper | readonly UrlSkipper[];
  /** Learn mirrored prefixes from the pages seen (default true). */
  learnMirrors?: boolean;
  /**
   * URL rewrite rules learnt from an earlier crawl (`UrlRules.load` of what `resemble collections
   * --avoid --rules FILE` writes, or `findCollections(…, { rules: true }).urlRules`): a URL the rules
   * spell as an URL already fetched or queued is skipped, through the filter (Crawlee's skip paths).
   */
  urlRules?: UrlRules;
}

/** A near-duplicate guard and a URL filter sharing what the crawl has seen. */
export interface CrawlDedup {
  readonly guard: DuplicateGuard;
  readonly mirrors?: MirrorLearner;
  readonly filter: UrlFilter;
  /** The URL rules given (`urlRules.skipped` counts the URLs they skipped). */
  readonly urlRules?: UrlRules;
  /** See `DuplicateGuard.isDuplicate`: the earlier page's URL, or null (the page is indexed). */
  isDuplicate(url: string, html: DocInput): string | null;
  /** See `UrlFilter.transformRequestFunction` (for `enqueueLinks`). */
  readonly transformRequestFunction: UrlFilter['transformRequestFunction'];
  /** See `UrlFilter.attach`: queued requests now skippable are skipped by the crawler's queue, Crawlee's way. */
  attach: UrlFilter['attach'];
  /** See `UrlFilter.preNavigationHook` (for `preNavigationHooks`, where `attach` cannot be used). */
  readonly preNavigationHook: UrlFilter['preNavigationHook'];
  /** Mirrored prefixes recognized so far. */
  rules(): MirrorRule[];
}

/** Loads the WebAssembly once and returns the guard and filter for a crawl (options validated here). */
export async function crawlDedup(options: CrawlDedupOptions = {}): Promise<CrawlDedup> {
  if (options === null || typeof options !== 'object') throw new ResembleError('E_OPTION', 'expected an options object for crawlDedup');
  const { avoid, learnMirrors = true, minEvidence, minShare, urlRules, ...guardOptions } = options;
  if (typeof learnMirrors !== 'boolean') throw optionError('learnMirrors', 'boolean', learnMirrors);
  if (urlRules !== undefined && !(urlRules instanceof UrlRules)) throw optionError('urlRules', 'UrlRules (UrlRules.load of a rules file)', typeof urlRules);
  await init();
  const guard = new DuplicateGuard(guardOptions);
  const filter = new UrlFilter(avoid === undefined ? [] : Array.isArray(avoid) ? avoid : [avoid as UrlSkipper]);
  if (urlRules) {
    filter.add(urlRules);
    // a page fetched (a start URL, a redirect's target) is seen as the rules spell it
    guard.onPage((url) => urlRules.markSeen(url));
  }
  let mirrors: MirrorLearner | undefined;
  if (learnMirrors) {
    mirrors = new MirrorLearner({ minEvidence, minShare });
    guard.onPage((url, match) => mirrors!.observe(url, match));
    filter.add(mirrors);
  }
  return {
    guard, mirrors, filter, ...(urlRules ? { urlRules } : {}),
    isDuplicate: (url, html) => guard.isDuplicate(url, html),
    transformRequestFunction: filter.transformRequestFunction,
    attach: (crawler) => filter.attach(crawler),
    preNavigationHook: filter.preNavigationHook,
    rules: () => mirrors?.rules() ?? [],
  };
}
