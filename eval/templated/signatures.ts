// Signatures (Di Iorio et al.) on a templated crawl, bags of words by content (the default) beside
// whole pages, scored against the article-text truth: pair precision is the share of colliding
// pairs whose pages are in one truth component (article word 5-shingle Jaccard ≥ 0.5, closed
// transitively); pair recall the share of page pairs whose articles have Jaccard ≥ 0.9 that collide.
// Run: npx tsx eval/templated/signatures.ts DIR [DIR2 …] [-- signatures flags]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTruth } from './score.js';

const argv = process.argv.slice(2), dash = argv.indexOf('--');
const dirs = dash >= 0 ? argv.slice(0, dash) : argv;
const flags = dash >= 0 ? argv.slice(dash + 1) : [];
if (dirs.length === 0) { console.error('usage: signatures.ts DIR [DIR2 …] [-- signatures flags]'); process.exit(2); }
const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'resemble.js');

for (const dir of dirs) {
  const truth = loadTruth(dir);
  const high = new Set<string>();
  for (const line of readFileSync(join(dir, 'truth.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    const t = JSON.parse(line) as { a: string; b: string; jaccard: number };
    if (t.jaccard >= 0.9) high.add([t.a, t.b].sort().join(' '));
  }
  for (const content of ['main', 'page']) {
    const t0 = Date.now();
    const out = execFileSync(process.execPath, [bin, 'signatures', join(dir, 'crawl'), '--output', 'pairs', '--content', content, '--quiet', ...flags], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const seconds = (Date.now() - t0) / 1000;
    let pairs = 0, right = 0, found = 0;
    for (const line of out.split('\n')) {
      if (!line) continue;
      const p = JSON.parse(line) as { a: string; b: string };
      const i = truth.index.get(p.a), j = truth.index.get(p.b);
      if (i === undefined || j === undefined) continue;
      pairs++;
      if (truth.component[i] === truth.component[j]) right++;
      if (high.has([p.a, p.b].sort().join(' '))) found++;
    }
    const precision = pairs ? right / pairs : 1, recall = high.size ? found / high.size : 1;
    console.log(`${dir}: signatures --content ${content} ${flags.join(' ')}: ${pairs} colliding pairs, ${right} of them the same article; pair precision ${precision.toFixed(4)}, pair recall ${recall.toFixed(4)} (${found} of ${high.size} pairs with article Jaccard ≥ 0.9); ${seconds.toFixed(1)} s`);
  }
}
