// Content mode: each host's template learnt from its own pages and left out of the sketches.
export { learnTemplates, templateTable, siteTemplate, resolveTemplateOptions, MIN_TEMPLATE_PAGES, DEFAULT_HEAVY, type TemplateOptions, type TemplateParams, type TemplateStats, type SiteTemplate, type LearnedTemplates } from './learn.js';
export { sketchWithTemplates, sectionOfUrl, type CrawlSketches } from './sketch.js';
export { contentEvidence, withContentEvidence, tooLittleContent, type MemberContentEvidence } from './evidence.js';
export { blockFingerprints, NO_TABLE, WHOLE_PAGE, type ContentTables, type BlockFingerprints } from '../sketch/content.js';
export { TemplateLearner, sketchReady, type ReadyPage, type LearnerOptions, type Reroute } from './learner.js';
export { SiteRouter, routeSites, deepestKnownSite } from './sites.js';
export { isRedirectStub, pageIdentity } from './stub.js';
