// The duplicate study of Pereira, Baeza-Yates and Ziviani (2006).
export { splitSentences, shingleParagraphs, paragraphParams, collapseWhitespace, type ParagraphOptions, type ParagraphParams } from './paragraphs.js';
export { paragraphColumns, columnsFromFingerprints, type ParagraphColumns, type FingerprintMany } from './columns.js';
export { findDuplicates, type DuplicateOptions, type DuplicateResult, type Clustering, type GrowthPoint } from './duplicates.js';
export { reachableFrom, stronglyConnected, coreSeed } from './crawl.js';
export { growthProfile, shareAt, extrapolate, type ProfilePoint, type DuplicateEstimate } from './estimate.js';
export { duplicateStudy, type StudyOptions, type StudyReport, type PartDuplicates, type SizeDistribution } from './study.js';
export { studyCrawl, studyOfColumns, type CrawlStudyOptions } from './crawl-study.js';
export { pageText, htmlText } from './page-text.js';
export { studyMarkdown, studyPlots } from './report.js';
