// Scores near-duplicate clusters of the templated crawl against the article-text truth.
// Truth: pages whose articles have word 5-shingle Jaccard ≥ 0.5 (truth.jsonl), closed
// transitively (clusters are); a clustered pair is a pair of pages in one cluster.
// Prints pairwise precision, recall and F1, and the share of clustered pairs that are
// different articles (or involve a page with no article at all).
// Run:
//   npx tsx eval/templated/evaluate.ts DIR [-- dups flags...]        runs `resemble dups DIR/crawl`
//   npx tsx eval/templated/evaluate.ts DIR --clusters FILE           scores a JSONL of {members:[{url}]}
//   npx tsx eval/templated/evaluate.ts DIR --peer datasketch         MinHash-128 + LSH (needs datasketch on PYTHONPATH)
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clustersOfJsonl, loadTruth, score, scoreLine } from './score.js';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
// Flags after `--` go to `resemble dups` unparsed.
const argv = process.argv.slice(2), dash = argv.indexOf('--');
const dupsFlags = dash >= 0 ? argv.slice(dash + 1) : [];
const { values: flags, positionals } = parseArgs({ args: dash >= 0 ? argv.slice(0, dash) : argv, options: { clusters: { type: 'string' }, peer: { type: 'string' } }, allowPositionals: true });
const dir = positionals[0];
if (!dir) { console.error('usage: evaluate.ts DIR [--clusters FILE | --peer datasketch | -- dups flags]'); process.exit(2); }

const truth = loadTruth(dir);

// The clusters to score.
let text: string;
let label: string;
const started = Date.now();
if (flags.clusters) { text = readFileSync(flags.clusters, 'utf8'); label = flags.clusters; }
else if (flags.peer === 'datasketch') {
  const r = spawnSync('python3', [join(here, 'datasketch_peer.py'), join(dir, 'crawl.jsonl')], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) { console.log(`datasketch: skipped (${(r.stderr || '').trim().split('\n').pop()})`); process.exit(0); }
  text = r.stdout; label = 'datasketch MinHash-128 + LSH (threshold 0.5, word 8-shingles of the page text)';
} else {
  const bin = join(here, '..', '..', 'bin', 'resemble.js');
  text = execFileSync(process.execPath, [bin, 'dups', join(dir, 'crawl'), '--quiet', ...dupsFlags], { encoding: 'utf8', maxBuffer: 1 << 28 });
  label = `resemble dups ${dupsFlags.join(' ')}`.trim();
}
const seconds = (Date.now() - started) / 1000;

console.log(`${scoreLine(label, truth, score(truth, clustersOfJsonl(truth, text)))}; ${seconds.toFixed(1)} s`);
