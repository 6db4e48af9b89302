// URL rewrite rules learnt from duplicate clusters (DUST): duplicate URLs predicted before fetching.
export { UrlRuleLearner, URL_RULE_DEFAULTS, type UrlRuleError, type UrlRuleOptions } from './learn.js';
export { UrlRules, type UrlRule, type UrlRuleKind } from './rules.js';
export { ruleLearnerOf, DEFAULT_RULE_RESEMBLANCE, type CrawlRuleOptions } from './of-crawl.js';
