/**
 * The curve behind the mirroring rule's `minShare` (docs/mirrors.md): runs `resemble mirrors` once
 * per crawl with `--min-share 0 --top 0` (every ranked pair tested, every alignment's shares kept),
 * decides each pair again under each share with the rule itself (alignmentVerdict), and scores the
 * verdicts against the crawl's truth: positives are the host pairs that mirror a copy (exact,
 * partial, lagging), negatives every other ranked pair, pairs of single copied pages and distant
 * releases included; `www.` alias pairs of a web crawl (truth/hosts.json) are left out of both.
 *
 *   node --import tsx eval/mirror-extent.ts --data DIR [--data DIR...] [--shares 0,0.02,0.05,0.1,0.2,0.3] [--json FILE]
 *
 * A crawl folder with `crawl/` is read as a folder, one with only `crawl.warc.gz` as WARC with its
 * truth's `hosts.txt` as `--ips` (runCrawl's `ips: false`: the WARC's addresses only).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { alignmentVerdict, RULE_DEFAULTS, type AlignmentEvidence } from '../src/mirrors/verdict.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const key = (a: string, b: string) => [a, b].sort().join(' ');

/** Takes a crawl folder; returns the ranked records of `mirrors --min-share 0` on it and the truth's positives and left-out pairs. */
export function runCrawl(data: string, options: { ips?: boolean } = {}) {
  const folder = join(data, 'crawl');
  const args = existsSync(folder) ? [folder] : [join(data, 'crawl.warc.gz'), ...(options.ips === false ? [] : ['--ips', join(data, 'truth', 'hosts.txt')])];
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'resemble.js'), 'mirrors', ...args, '--min-share', '0', '--min-pages', '1', '--top', '0', '--quiet'], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`mirrors on ${data} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const records = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const copies = JSON.parse(readFileSync(join(data, 'truth', 'copies.json'), 'utf8'));
  const positive = new Set<string>(copies.hostPairs.filter((p: any) => p.mirror).map((p: any) => key(p.a, p.b)));
  const hostsFile = join(data, 'truth', 'hosts.json');
  // a www. alias stands for its host: a pair of the alias and another host is the host's pair
  const canonical = new Map<string, string>(existsSync(hostsFile) ? JSON.parse(readFileSync(hostsFile, 'utf8')).aliases.filter((x: any) => x.rule === 'www').map((x: any) => [x.b, x.a]) : []);
  const copied = new Set<string>(copies.hostPairs.filter((p: any) => !p.mirror && p.relations.some((x: any) => x.relation === 'single-page copy')).map((p: any) => key(p.a, p.b)));
  const host = (h: string) => canonical.get(h) ?? h;
  return { records: records.map((r) => ({ ...r, a: host(r.a), b: host(r.b) })), positive, copied };
}

/** Takes a crawl's run and a share; returns precision, recall and the wrong verdicts under that share. */
export function scoreAt(run: ReturnType<typeof runCrawl>, minShare: number, minPages = RULE_DEFAULTS.minPages) {
  const rule = { ...RULE_DEFAULTS, minShare, minPages };
  // a pair (and the same pair met again through an alias) is called a mirror when any of its records is one
  const called = new Map<string, { mirror: boolean; copied: boolean }>();
  for (const r of run.records) {
    if (r.a === r.b) continue; // a host and its alias
    const k = key(r.a, r.b);
    const verdicts = (r.evidence?.verdict?.alignments ?? []).map((e: AlignmentEvidence) => alignmentVerdict(e, rule));
    const c = called.get(k) ?? { mirror: false, copied: false };
    c.mirror ||= verdicts.includes('mirror');
    c.copied ||= verdicts.includes('copied pages');
    called.set(k, c);
  }
  let tp = 0, fp = 0, copiedNegatives = 0, copiedCalled = 0;
  const said = new Set<string>(), wrong: string[] = [];
  for (const [k, c] of called) {
    if (run.copied.has(k)) { copiedNegatives++; if (c.copied && !c.mirror) copiedCalled++; }
    if (!c.mirror) continue;
    said.add(k);
    if (run.positive.has(k)) tp++; else { fp++; wrong.push(`false mirror ${k}`); }
  }
  for (const k of run.positive) if (!said.has(k)) wrong.push(`missed ${k}`);
  const positives = run.positive.size;
  return { precision: tp + fp ? tp / (tp + fp) : null, recall: positives ? tp / positives : null, tp, fp, positives, copiedNegatives, copiedCalled, wrong };
}

async function main() {
  const { values } = parseArgs({ options: { data: { type: 'string', multiple: true }, shares: { type: 'string' }, json: { type: 'string' } } });
  if (!values.data?.length) { console.error('give --data DIR (a crawl built by eval/manuals or eval/web), once per crawl'); process.exit(2); }
  const shares = (values.shares ?? '0,0.02,0.05,0.1,0.2,0.3,0.5').split(',').map(Number);
  const out: Record<string, unknown> = {};
  const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));
  console.log(`| crawl | ${shares.map((s) => `minShare ${s}`).join(' | ')} |`);
  console.log(`|---|${shares.map(() => '---').join('|')}|`);
  for (const d of values.data) {
    const run = runCrawl(resolve(d));
    const rows = shares.map((s) => ({ minShare: s, ...scoreAt(run, s) }));
    out[basename(resolve(d))] = rows;
    console.log(`| ${basename(resolve(d))} | ${rows.map((r) => `${f3(r.precision)} / ${f3(r.recall)}`).join(' | ')} |`);
    const at = rows.find((r) => r.minShare === RULE_DEFAULTS.minShare) ?? scoreAt(run, RULE_DEFAULTS.minShare);
    console.error(`${basename(resolve(d))} at the default ${RULE_DEFAULTS.minShare}: ${at.tp} of ${at.positives} mirror pairs, ${at.fp} false; copied-page pairs ${at.copiedCalled} of ${at.copiedNegatives} named copied pages${at.wrong.length ? `; ${at.wrong.join('; ')}` : ''}`);
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 1) + '\n');
}

if (process.argv[1]?.endsWith('mirror-extent.ts')) await main();
