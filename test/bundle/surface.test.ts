// The public surface, pinned: the values of the root entry (`web-resemble`: src/node.ts in Node,
// src/browser.ts in browsers, src/index.ts as `web-resemble/core`) and of `web-resemble/advanced`
// (src/advanced.ts in Node, src/advanced-browser.ts in browsers). The root holds what a first script
// needs (the entry points, init, the sketches and their two measures, the index, the readers, the
// errors); the algorithm steps are in advanced, which re-exports the root. A name added to or
// dropped from an entry is a deliberate change to these lists and to docs/library.md. (The built
// bundles are checked against these sources in exports.test.ts.)
import { test } from 'uvu';
import * as assert from 'uvu/assert';

/** The most values the root entry may export: a surface a newcomer can hold in their head. */
const ROOT_VALUES_MAX = 50;

const CORE = [
  'ERROR_CODES', 'ResembleError', 'ResembleIndex', 'containment', 'init', 'initSync', 'loadIndex', 'resemblance',
  'resolveSketchOptions', 'saveIndex', 'sketch', 'sketchMany',
];

// The Node root adds one entry point per capability, the pool on worker_threads and the readers.
const NODE_ONLY = [
  'dedup', 'findCollections', 'findMirrors', 'findNearDuplicates', 'findSignatureCollisions', 'sketchCrawl', 'studyDuplicates',
  'buildIndex', 'queryIndex',
  'createPool', 'fileBytes', 'loadCrawl', 'readBatches', 'readCrawl', 'readFolder', 'readJsonl', 'readUrlList', 'readWarc',
  'utf8Bytes',
];

// The browser root adds the same entry points (on pages, Files and Blobs: each loaded when first
// called), the pool on Web Workers and the reader of dropped files.
const BROWSER_ONLY = [
  'dedup', 'findCollections', 'findMirrors', 'findNearDuplicates', 'findSignatureCollisions', 'sketchCrawl', 'studyDuplicates',
  'createPool', 'fileBytes',
];

// web-resemble/advanced, in Node and in browsers: the steps that need no Node built-ins.
const ADVANCED_CORE = [
  'AvoidList', 'Chunker', 'Clusters', 'DEFAULT_M', 'DEFAULT_S', 'DEFAULT_W', 'Fingerprinter', 'INDEX_MAGIC', 'INDEX_VERSION',
  'NearDuplicates', 'POLYNOMIAL', 'SKETCH_MAGIC', 'SKETCH_VERSION', 'SketchBuilder', 'SketchSet', 'UnionFind', 'assertComparable',
  'avoidList', 'breakPoints', 'canonicalize', 'checkDefinition5', 'chunkBoundaries', 'clusterRecord', 'collectionsOfGraph',
  'compiledModule', 'deserializeSketchSet', 'exactContainment', 'exactResemblance', 'fingerprint', 'fingerprintMany',
  'growClusters', 'intersectionSize', 'isInitialized', 'kernelBuild', 'kmvCardinality', 'linkSummary', 'mergeEdges',
  'minResemblance', 'nearDuplicateRecord', 'nearDuplicates', 'nearDuplicatesOnPool', 'pageGraph', 'parseSimilarity',
  'replicatedCollections', 'rollUp', 'rollingFingerprints', 'serializeSketchSet', 'shingleSet', 'shingleValues',
  'simdSupported', 'similarPages', 'sketchItems', 'superShingles', 'tokenFingerprints', 'trivialFromPairs',
];

// web-resemble/advanced in Node adds content mode, the web graph, the readers' steps, the mirrors'
// rankings and tests, the study's and the signatures' stages, plots and the scale path.
const ADVANCED_NODE_ONLY = [
  'CONTRACT', 'CONTRACT_VERSION', 'CrawlPhenomena', 'DuckDBEngine', 'HostSet', 'ParquetSink', 'Ranking', 'SiteRouter',
  'TemplateLearner', 'WebGraph', 'bagsFromTokens', 'cliqueGroups', 'clusterWithDuckDB', 'collisionGroups', 'computeSignatures',
  'crawlBags', 'crawlContentSource', 'decodeHtml', 'deepestKnownSite', 'detectCharset', 'duplicateStudy', 'evaluateCollisions',
  'evaluateRankings', 'exactJaccard', 'extractLinks', 'extrapolate', 'findCollisions', 'findDuplicates', 'growthProfile',
  'hostOfUrl', 'hyperlinkMap', 'isRedirectStub', 'keyRows', 'learnTemplates', 'linkSummaryWithDuckDB',
  'mirrorInputFromDocuments', 'mirroringTest', 'nearDuplicatesFromParquet', 'normalizeUrl', 'openParquetFile', 'openSpark',
  'pageIdentity', 'pageText', 'pairsAtLeast', 'paragraphColumns', 'parseHostsFile', 'phenomenaRecords', 'phenomenaSummary',
  'planScript', 'plotSeries', 'poolJudge', 'precisionAtRecall', 'precisionRecall', 'randomProjection', 'rankAll', 'rankMirrors',
  'reachableFrom', 'readShardSet', 'readSingleFile', 'readWarcStreaming', 'renderPlan', 'renderSvg', 'routeSites',
  'runPipeline', 'sampleReference', 'scorePairs', 'shingleParagraphs', 'shingleSetsOf', 'signatureReport', 'signaturesOfCrawl',
  'sketchReady', 'sketchToParquet', 'sketchWithTemplates', 'sniffCharset', 'stronglyConnected', 'studyCrawl', 'studyMarkdown',
  'studyPlots', 'truthJudge', 'urlVariant', 'verifyRanking', 'writeParquetFile',
];

const names = (mod: object) => Object.keys(mod).filter((k) => k !== 'default').sort();
const sorted = (...lists: string[][]) => [...new Set(lists.flat())].sort();

test('the core entry exports the curated list', async () => {
  assert.equal(names(await import('../../src/index.js')), sorted(CORE));
});

test('the root entry exports the core, the entry points, the pool and the readers', async () => {
  assert.equal(names(await import('../../src/node.js')), sorted(CORE, NODE_ONLY));
  assert.equal(names(await import('../../src/browser.js')), sorted(CORE, BROWSER_ONLY));
  assert.equal(names(await import('../../src/browser-external.js')), sorted(CORE, BROWSER_ONLY));
});

test(`the root entry has at most ${ROOT_VALUES_MAX} values, in Node and in browsers`, async () => {
  for (const entry of ['../../src/node.js', '../../src/browser.js', '../../src/browser-external.js', '../../src/index.js']) {
    const values = names(await import(entry));
    assert.ok(values.length <= ROOT_VALUES_MAX, `${entry}: ${values.length} values, over ${ROOT_VALUES_MAX}`);
    assert.ok(values.length >= 10, `${entry}: ${values.length} values, the API is there`);
  }
});

test('web-resemble/advanced is the root plus the algorithm steps, in Node and in browsers', async () => {
  assert.equal(names(await import('../../src/advanced.js')), sorted(CORE, NODE_ONLY, ADVANCED_CORE, ADVANCED_NODE_ONLY));
  assert.equal(names(await import('../../src/advanced-browser.js')), sorted(CORE, BROWSER_ONLY, ADVANCED_CORE));
  assert.equal(names(await import('../../src/advanced-browser-external.js')), sorted(CORE, BROWSER_ONLY, ADVANCED_CORE));
});

test('the root re-exported by advanced is the same binding (one class, one WebAssembly state)', async () => {
  const root = await import('../../src/node.js'), advanced = await import('../../src/advanced.js');
  for (const n of names(root)) assert.is((advanced as Record<string, unknown>)[n], (root as Record<string, unknown>)[n], n);
  const browser = await import('../../src/browser.js'), advancedBrowser = await import('../../src/advanced-browser.js');
  for (const n of names(browser)) assert.is((advancedBrowser as Record<string, unknown>)[n], (browser as Record<string, unknown>)[n], n);
});

test('the steps and the old names of the entry points are off the root', async () => {
  const root = await import('../../src/node.js');
  // Each capability has one entry point on the root; its steps and former names are in advanced.
  for (const moved of ['nearDuplicatesOfCrawl', 'sketchWithTemplates', 'collectionsOfGraph', 'rankMirrors', 'findDuplicates', 'duplicateStudy',
    'studyCrawl', 'signaturesOfCrawl', 'nearDuplicates', 'trivialFromPairs', 'linkSummary', 'serializeSketchSet', 'fingerprint', 'SketchSet']) {
    assert.not.ok(moved in root, moved);
  }
});

test('internals stay internal: the steps inside each algorithm are in no entry', async () => {
  for (const entry of [await import('../../src/node.js'), await import('../../src/advanced.js')]) {
    for (const internal of ['hconn1Weight', 'pairKey', 'Random', 'finalPhase', 'sortKeyed', 'buildPostings', 'icebergPairs', 'gunzipPieces', 'ByteReader', 'WordTable', 'nearDuplicatesOfCrawl']) {
      assert.not.ok(internal in entry, internal);
    }
  }
});

test.run();
