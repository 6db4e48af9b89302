/**
 * IP3 and IP4 (Bharat et al. §3.1) against the content ranking, on a web crawl of eval/web with its
 * hosts' addresses: average precision of each ranking over the truth's relevant pairs (the host
 * pairs that mirror a copy, and each host with its www. alias unless the command reported it as
 * an alias), every ranked pair taken.
 *
 *   node --import tsx eval/web/ip-ranking.ts --data DIR [--algorithms ip4,ip3,hybrid,combined] [--warc-ips]
 *
 * The addresses are the truth's hosts.txt given as --ips, or with --warc-ips the WARC's own
 * WARC-IP-Address fields alone (the same addresses; the www. aliases are then host aliases, not ranked).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const key = (a: string, b: string) => [a, b].sort().join(' ');

/** Takes the ranked pairs (best first) and the relevant ones; returns average precision (relevant pairs never ranked count 0) and precision at the end. */
export function averagePrecision(ranked: string[], relevant: Set<string>) {
  let hits = 0, sum = 0;
  ranked.forEach((k, i) => { if (relevant.has(k)) { hits++; sum += hits / (i + 1); } });
  return { averagePrecision: relevant.size ? sum / relevant.size : null, found: hits, ranked: ranked.length, relevant: relevant.size };
}

async function main() {
  const { values } = parseArgs({ options: { data: { type: 'string' }, algorithms: { type: 'string' }, 'warc-ips': { type: 'boolean' } } });
  if (!values.data) { console.error('give --data DIR (a crawl built by eval/web)'); process.exit(2); }
  const data = resolve(values.data);
  const hosts = JSON.parse(readFileSync(join(data, 'truth', 'hosts.json'), 'utf8'));
  const relevant = new Set<string>([...hosts.mirrorPairs.map((p: any) => key(p.a, p.b)), ...hosts.aliases.filter((x: any) => x.rule === 'www').map((x: any) => key(x.a, x.b))]);
  for (const algorithm of (values.algorithms ?? 'ip4,ip3,combined,hybrid').split(',')) {
    const ips = values['warc-ips'] ? [] : ['--ips', join(data, 'truth', 'hosts.txt')];
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'resemble.js'), 'mirrors', join(data, 'crawl.warc.gz'), ...ips, '--algorithm', algorithm, '--no-verify', '--top', '0', '--quiet'], { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`${algorithm}: ${r.stderr.slice(-1000)}`);
    const records = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
    // www. aliases the crawl showed are printed as alias records, after the ranking and outside it:
    // they are found for certain, and left out of the ranking's relevant pairs
    const aliases = new Set<string>(records.filter((x) => x.relation === 'alias').map((x) => key(x.a, x.b)));
    const ranked = records.filter((x) => x.relation !== 'alias').map((x) => key(x.a, x.b));
    const ap = averagePrecision(ranked, new Set([...relevant].filter((k) => !aliases.has(k))));
    console.log(`${algorithm.padEnd(9)} average precision ${ap.averagePrecision?.toFixed(3)}  (${ap.found} of ${ap.relevant} relevant pairs among ${ap.ranked} ranked; ${aliases.size} www. aliases reported as aliases)`);
  }
}

if (process.argv[1]?.endsWith('ip-ranking.ts')) await main();
