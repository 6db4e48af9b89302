// web-resemble/crawlee: deduplicating while crawling with Crawlee (or any crawler). Crawlee's
// objects are taken structurally, so nothing here imports it.
export { crawlDedup, type CrawlDedup, type CrawlDedupOptions } from './dedup.js';
export { DuplicateGuard, type DuplicateGuardOptions, type GuardObserver } from './guard.js';
export { UrlFilter, SkippedUrlError, type RequestLike, type RequestQueueLike, type CrawlerLike } from './filter.js';
export { MirrorLearner, type MirrorLearnerOptions, type MirrorRule, type UrlSkipper } from './mirror-learner.js';
export { UrlRules, type UrlRule, type UrlRuleKind } from '../collections/url-rules/rules.js';
export { UrlRuleLearner, URL_RULE_DEFAULTS, type UrlRuleOptions, type UrlRuleError } from '../collections/url-rules/learn.js';
export { init } from '../wasm/loader.js';
export { saveIndex, loadIndex } from '../cluster/index.js';
