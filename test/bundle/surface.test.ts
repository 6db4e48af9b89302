// The curated public surface, pinned: the values the core entry (src/index.ts) and the Node root
// entry (src/node.ts, the package's `web-resemble`) export. The steps inside each capability stay
// internal; a name added to or dropped from an entry is a deliberate change to this list and to the
// README. (The built bundles are checked against these sources in exports.test.ts.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const CORE = [
  'AvoidList', 'Chunker', 'Clusters', 'DEFAULT_M', 'DEFAULT_S', 'DEFAULT_W', 'Fingerprinter', 'INDEX_MAGIC',
  'INDEX_VERSION', 'NearDuplicates', 'POLYNOMIAL', 'ResembleError', 'ResembleIndex', 'SKETCH_MAGIC',
  'SKETCH_VERSION', 'SketchBuilder', 'SketchSet', 'UnionFind', 'assertComparable', 'avoidList',
  'breakPoints', 'canonicalize', 'checkDefinition5', 'chunkBoundaries', 'clusterRecord', 'compiledModule',
  'containment', 'deserializeSketchSet', 'exactContainment', 'exactResemblance', 'collectionsOfGraph',
  'fingerprint', 'fingerprintMany', 'growClusters', 'init', 'initSync', 'intersectionSize', 'isInitialized',
  'kernelBuild', 'kmvCardinality', 'linkSummary', 'loadIndex', 'mergeEdges', 'minResemblance',
  'nearDuplicateRecord', 'nearDuplicates', 'nearDuplicatesOnPool', 'pageGraph', 'parseSimilarity', 'replicatedCollections',
  'resemblance', 'resolveSketchOptions', 'rollUp', 'rollingFingerprints', 'saveIndex', 'serializeSketchSet',
  'shingleSet', 'shingleValues', 'simdSupported', 'similarPages', 'sketch', 'sketchItems', 'sketchMany',
  'superShingles', 'tokenFingerprints', 'trivialFromPairs',
];

// The Node entry adds the readers, the pool on worker_threads, the web graph, mirrors, the study,
// the signatures, content mode and the scale path.
const NODE_ONLY = [
  'CONTRACT', 'CONTRACT_VERSION', 'CrawlPhenomena', 'DuckDBEngine', 'HostSet', 'ParquetSink', 'Ranking', 'SiteRouter', 'TemplateLearner',
  'WebGraph', 'bagsFromTokens', 'cliqueGroups', 'clusterWithDuckDB', 'collisionGroups', 'computeSignatures',
  'crawlBags', 'crawlContentSource', 'createPool', 'decodeHtml', 'dedup', 'deepestKnownSite', 'detectCharset', 'duplicateStudy',
  'evaluateCollisions', 'evaluateRankings', 'exactJaccard', 'extractLinks', 'extrapolate', 'fileBytes',
  'findCollisions', 'findDuplicates', 'rankMirrors', 'findNearDuplicates', 'growthProfile', 'hostOfUrl', 'hyperlinkMap', 'isRedirectStub', 'keyRows',
  'learnTemplates', 'linkSummaryWithDuckDB', 'loadCrawl', 'mirrorInputFromDocuments', 'mirroringTest', 'nearDuplicatesFromParquet',
  'normalizeUrl', 'openParquetFile', 'openSpark', 'pageIdentity', 'pageText', 'pairsAtLeast', 'paragraphColumns', 'parseHostsFile',
  'phenomenaRecords', 'phenomenaSummary',
  'planScript', 'plotSeries', 'poolJudge', 'precisionAtRecall', 'precisionRecall', 'randomProjection',
  'rankAll', 'reachableFrom', 'readBatches', 'readCrawl', 'readFolder', 'readJsonl', 'readSingleFile',
  'readShardSet', 'readUrlList', 'readWarc', 'readWarcStreaming', 'renderPlan', 'renderSvg', 'routeSites', 'runPipeline',
  'sampleReference', 'scorePairs', 'shingleParagraphs', 'shingleSetsOf', 'signatureReport', 'signaturesOfCrawl', 'sketchCrawl', 'sketchWithTemplates', 'sketchToParquet', 'sniffCharset',
  'sketchReady', 'stronglyConnected', 'studyCrawl', 'studyMarkdown', 'studyPlots', 'truthJudge', 'urlVariant', 'utf8Bytes',
  'verifyRanking', 'writeParquetFile', 'findCollections', 'findMirrors', 'findSignatureCollisions', 'studyDuplicates', 'buildIndex', 'queryIndex',
];

const names = (mod: object) => Object.keys(mod).filter((k) => k !== 'default').sort();

test('the core entry exports the curated list', async () => {
  assert.equal(names(await import('../../src/index.js')), [...CORE].sort());
});

test('the root entry exports the core, plus the Node-only capabilities', async () => {
  assert.equal(names(await import('../../src/node.js')), [...CORE, ...NODE_ONLY].sort());
});

test('internals stay internal: the steps of each algorithm are not exported', async () => {
  const root = await import('../../src/node.js');
  for (const internal of ['hconn1Weight', 'pairKey', 'Random', 'finalPhase', 'sortKeyed', 'buildPostings', 'icebergPairs', 'gunzipPieces', 'ByteReader', 'WordTable']) {
    assert.not.ok(internal in root, internal);
  }
});

test.run();
