// Random Projection and Hyperlink Map signatures of Di Iorio, Diligenti, Gori, Maggini and Pucci (2003).
export { bagsFromTokens, bagCosine, type BagsOfWords } from './bags.js';
export { signatureParams, collisionParams, SIGNATURE_DEFAULTS, type SignatureOptions, type SignatureParams, type CollisionOptions, type CollisionParams } from './options.js';
export { randomProjection, normalizeProjections, hyperlinkMap, computeSignatures, type Signatures } from './signatures.js';
export { projectionEntry } from './kernels.js';
export { findCollisions, collisionGroups, cliqueGroups, rowDistance, type CollisionPairs, type CollisionGroup, type CliqueGroup, type GroupMember } from './collisions.js';
export { sampleReference, evaluateCollisions, precisionRecall, RP_ONLY_C, type ReferenceOptions, type PrPoint, type SweepOptions, type ExactPairs } from './evaluate.js';
export { shingleSetsOf, exactJaccard, pairsAtLeast, scorePairs, type ShingleSets, type JaccardPairs, type PairScore } from './pair-evaluation.js';
export { crawlBags, signaturesOfCrawl, type BagOptions } from './crawl-signatures.js';
export { precisionRecallPlot } from './plot.js';
export { signatureReport, equalSignatureClasses, LIST_PAIRS_UP_TO, type SignatureReport, type SignatureReportOptions, type ReportGroup, type ReportMember, type ReportPairs } from './report.js';
