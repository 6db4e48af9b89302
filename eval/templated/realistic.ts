// Content mode on the realistic documentation crawl (eval/manuals/): `resemble dups` with
// --content main (the default) and --content page, each scored as eval/manuals/evaluate.ts
// scores dups (pairwise P / R / F1 against the components of exact whole-page Jaccard ≥ 0.5).
// Run: npx tsx eval/templated/realistic.ts [--data DIR] [-- more dups flags]   (DIR defaults to $RESEMBLE_DATA/realistic)
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTruth, scoreDups } from '../manuals/evaluate.js';
import { parseArgs } from 'node:util';

// Flags after `--` go to `resemble dups` unparsed.
const argv = process.argv.slice(2), dash = argv.indexOf('--');
const extra = dash >= 0 ? argv.slice(dash + 1) : [];
const { values: flags } = parseArgs({ args: dash >= 0 ? argv.slice(0, dash) : argv, options: { data: { type: 'string' } } });
const data = flags.data ?? (process.env.RESEMBLE_DATA ? join(process.env.RESEMBLE_DATA, 'realistic') : undefined);
if (!data) { console.error('give --data DIR (the realistic crawl) or set RESEMBLE_DATA'); process.exit(2); }
const root = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const truth = loadTruth(join(resolve(data), 'truth'));
for (const content of ['page', 'main']) {
  const started = Date.now();
  const r = spawnSync(process.execPath, [join(root, 'bin', 'resemble.js'), 'dups', join(resolve(data), 'crawl'), '--content', content, ...extra],
    { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`dups --content ${content} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const records = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const s = scoreDups(truth, records);
  const f4 = (x: number | null) => (x === null ? 'n/a' : x.toFixed(4));
  console.log(`dups --content ${content} ${extra.join(' ')}: precision ${f4(s.precision)} recall ${f4(s.recall)} F1 ${f4(s.f1)}; `
    + `${s.clusters} clusters, ${s.cannotLink} cannot-link pairs; ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const line of r.stderr.split('\n')) if (/^(content|dups):/.test(line)) console.log(`  ${line}`);
}
