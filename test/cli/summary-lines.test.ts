// The closing summary lines: plain words, and every count of the entry point's summary object in
// them (distinct values here, so that each can be found), on the sample through the CLI too.
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { collectionsSummary } from '../../src/cli/commands/collections.js';
import { dupsSummary } from '../../src/cli/commands/dups.js';
import { mirrorsSummary } from '../../src/cli/commands/mirrors.js';
import { signaturesSummary } from '../../src/cli/commands/signatures.js';
import { contentSummary } from '../../src/cli/content.js';
import { main } from '../../src/cli/main.js';
import type { CollectionSummary } from '../../src/collections/entry.js';
import type { NearDuplicateSummary } from '../../src/cluster/find.js';
import { findNearDuplicates } from '../../src/node.js';

/** Words of earlier summary lines that said too little to a newcomer. */
const JARGON = [/waited for their site's template/, /joined to copies of their text only/, /trivial clusters/, /do not chain/, /candidate pairs/, /exact or equivalent/, /URL variants/, /host aliases/, /verdicts:/];

/** Asserts each number appears in the line as a whole number, in the order given. */
function countsIn(line: string, counts: number[]): void {
  let at = 0;
  for (const c of counts) {
    const m = new RegExp(`(?<![\\d.])${String(c).replace('.', '\\.')}(?![\\d])`).exec(line.slice(at));
    assert.ok(m, `${c} after position ${at} in: ${line}`);
    at += m!.index + String(c).length;
  }
  for (const j of JARGON) assert.not.match(line, j);
}

test('content and dups: every count, in order, in plain words', () => {
  const content = { templates: 11, sites: 23, templateBlocks: 207, heldPages: 113, thinPages: 19, minContent: 31 };
  countsIn(contentSummary(content), [11, 23, 207, 113, 19, 31]);
  assert.match(contentSummary({ ...content, thinPages: 1 }), '1 page has fewer than 31 words of its own and is matched only to copies with the same words');
  const s = { pages: 389, clusters: 73, clusteredPages: 371, copies: 283, candidatePairs: 117, joinedPairs: 17, nearPairs: 5, exactPairs: 5, bytes: 3 << 20, seconds: 0.5, workers: 3 } as NearDuplicateSummary;
  countsIn(dupsSummary(s), [73, 371, 389, 283, 117, 17, 5, 3]);
});

test('collections, mirrors, signatures: every count, in order, in plain words', () => {
  const c = { clusters: 2, noise: 3, minSize: 10, pages: 388, trivialClusters: 176, splitClusters: 5, replicatedLinkGroups: 925, virtualPages: 82, joinedByPath: 7, breakPoints: 4, pagesWithoutText: 6, droppedClusters: 0 } as CollectionSummary;
  countsIn(collectionsSummary(c), [2, 3, 10, 388, 176, 5, 925, 82, 7, 4, 6]);
  const m = { algorithm: 'hybrid' as const, hosts: 6, droppedHosts: 3, minUrls: 5, rankedPairs: 14, written: 12, verdicts: { mirror: 10, notMirror: 4, undetermined: 1 } };
  countsIn(mirrorsSummary(m), [6, 3, 5, 14, 12, 10, 4, 1]);
  countsIn(signaturesSummary({ pairs: 733, listedPairs: 701, groups: 79, groupedPages: 365, distinct: 104, C: 2, D: 0.03, k: 32 }), [733, 701, 79, 365, 104, 0.03, 2, 32]);
  countsIn(signaturesSummary({ pairs: 733, listedPairs: 701, groups: 79, groupedPages: 365, distinct: 104, C: 2, D: 0.1, k: 32, verifyAt: 0.85, candidates: 250, rejected: 41 }), [733, 0.85, 41, 250, 701, 79, 365, 104, 0.1, 2, 32]);
});

test('dups on the sample: the line the CLI prints holds the counts of findNearDuplicates\'s summary', async () => {
  let err = '';
  const code = await main(['dups', join(import.meta.dirname, '..', '..', 'sample')], { stdout: { write: () => undefined }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  assert.is(code, 0, err);
  const { summary } = await findNearDuplicates(join(import.meta.dirname, '..', '..', 'sample'));
  const line = err.split('\n').find((l) => l.startsWith('dups: '))!;
  countsIn(line, [summary.clusters, summary.clusteredPages, summary.pages, summary.copies, summary.candidatePairs, summary.joinedPairs]);
  const content = err.split('\n').find((l) => l.startsWith('content: '))!;
  countsIn(content, [summary.content!.templates, summary.content!.sites, summary.content!.templateBlocks, summary.content!.heldPages, summary.content!.thinPages]);
});

test.run();
