import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { tempDir } from '../io/fixtures.js';
import { makeWorld, worldJsonl, worldTruth } from './world.js';

const { dir, cleanup } = tempDir('resemble-mirrors-');
const world = makeWorld({ seed: 11, sitesPerTopic: 4, vhosts: 6, mirrorGroups: 4, aliasGroups: 2, partialMirrors: 2 });
const crawl = join(dir, 'crawl.jsonl');
const truth = join(dir, 'truth.txt');
writeFileSync(crawl, worldJsonl(world));
writeFileSync(truth, worldTruth(world));
const isMirror = (a: string, b: string) => world.truth.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(['mirrors', ...argv], { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  const records = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
  return { code, out, err, records };
}

test('one JSON line per ranked pair: rank, a, b, score, algorithms, mirror, evidence', async () => {
  const r = await run([crawl, '--top', '6']);
  assert.is(r.code, 0, r.err);
  assert.is(r.records.length, 6);
  r.records.forEach((x, i) => {
    assert.equal(Object.keys(x), ['rank', 'a', 'b', 'score', 'algorithms', 'mirror', 'evidence']);
    assert.is(x.rank, i + 1);
    assert.ok(x.a < x.b);
    assert.is(x.mirror, null);
    assert.is(x.score, x.algorithms.length, 'combined scores by votes');
    assert.is(x.evidence.votes, x.algorithms.length);
  });
  for (let i = 1; i < 6; i++) assert.ok(r.records[i].score <= r.records[i - 1].score);
  assert.match(r.err, /combined: \d+ hosts/);
});

test('--algorithm ip4 shows the shared address; --verify gives the mirroring test\'s verdicts', async () => {
  const ip = await run([crawl, '--algorithm', 'ip4', '--top', '3', '--quiet']);
  assert.is(ip.code, 0);
  assert.is(ip.err, '');
  for (const x of ip.records) assert.equal(Object.keys(x.evidence), ['ip', 'clusterSize']);
  const n = world.truth.length;
  const v = await run([crawl, '--algorithm', 'hybrid', '--verify', '--top', String(n + 3), '--quiet']);
  assert.is(v.code, 0, v.err);
  for (const x of v.records) {
    assert.is(x.mirror, isMirror(x.a, x.b), `${x.a} ${x.b}: ${JSON.stringify(x.evidence.verification)}`);
    assert.ok(['mirror', 'mismatch', 'partial'].includes(x.evidence.verification.verdict));
  }
  assert.ok(v.records.slice(0, n).every((x) => x.mirror === true));
});

test('--truth and --plot: every algorithm evaluated, Figures 1, 3, 4 written as SVG', async () => {
  const plots = join(dir, 'plots');
  const r = await run([crawl, '--truth', truth, '--plot', plots, '--top', '40']);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, 'evaluation against the truth file');
  for (const f of ['figure1-precision-at-rank.svg', 'figure3-relative-recall-at-rank.svg', 'figure4-precision-recall.svg']) {
    const svg = readFileSync(join(plots, f), 'utf8');
    assert.match(svg, /^<svg/);
    assert.match(svg, 'hybrid');
  }
  const summary = JSON.parse(readFileSync(join(plots, 'evaluation.json'), 'utf8'));
  assert.equal(summary.algorithms.map((a: { algorithm: string }) => a.algorithm), ['ip4', 'ip3', 'hosts', 'paths', 'prefix', 'shingles', 'conn', 'hconn1', 'hconn2', 'combined', 'hybrid']);
  const hybrid = summary.algorithms.find((a: { algorithm: string }) => a.algorithm === 'hybrid');
  assert.is(hybrid.found, world.truth.length);
  for (const x of r.records) assert.is(x.evidence.truth, isMirror(x.a, x.b));
});

test('URL lists with an IP column and a hosts file: bad lines reported with their numbers', async () => {
  const list = join(dir, 'urls.txt');
  const lines = ['http://www.alpha.org/a 10.1.1.1', 'http://alpha.org/a 10.1.1.1', 'not a url', 'http://www.alpha.org/b 10.1.1', 'http://alpha.org/b', 'http://beta.org/a', 'http://beta.org/b'];
  writeFileSync(list, lines.join('\n') + '\n');
  const hostsFile = join(dir, 'hosts');
  writeFileSync(hostsFile, '10.1.1.1 alpha.org\nbeta.org 10.9.9.9 10.1.1.1\ngamma.org 1.2.3.999\n');
  const r = await run([list, '--algorithm', 'ip4', '--min-urls', '2', '--ips', hostsFile]);
  assert.is(r.code, 0, r.err);
  assert.match(r.err, `${list} line 3`);
  assert.match(r.err, `${list}:4`);
  assert.match(r.err, `${hostsFile} line 3`);
  assert.equal(r.records.map((x) => [x.a, x.b]), [['alpha.org', 'beta.org'], ['alpha.org', 'www.alpha.org'], ['beta.org', 'www.alpha.org']]);
  const hybrid = await run([list, '--algorithm', 'hybrid', '--min-urls', '2', '--quiet']);
  assert.is(hybrid.code, 1);
  assert.match(hybrid.err, 'hybrid needs page content');
});

test('bad arguments exit 2; too few hosts exit 1', async () => {
  for (const argv of [[crawl, '--algorithm', 'mirrorz'], [crawl, '--top', '-1'], [crawl, '--min-urls', '0'], [crawl, '--bogus']]) {
    const r = await run(argv);
    assert.is(r.code, 2, argv.join(' '));
  }
  const missing = await run([crawl, '--ips', join(dir, 'no-such-file')]);
  assert.is(missing.code, 1);
  assert.match(missing.err, 'cannot read the --ips file');
  const few = await run([crawl, '--min-urls', '100000', '--quiet']);
  assert.is(few.code, 1);
  assert.match(few.err, 'expected at least two hosts');
  assert.ok(!existsSync(join(dir, 'plots-none')));
});

test.after(cleanup);
test.run();
