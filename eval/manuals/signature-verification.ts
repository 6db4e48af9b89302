/**
 * The curve behind the verified defaults of `resemble signatures`: the crawl is read once as the
 * command reads it (content-mode bags, the exact word-8-shingle sets), and for each candidate
 * tolerance D and verification level the pairs and groups the command would print are scored as
 * evaluate.ts scores them (pair precision: J ≥ 0.8; recall: pairs with J ≥ 0.9), with the recall
 * of the candidates themselves (no verification).
 *
 *   node --import tsx eval/manuals/signature-verification.ts --data DIR [--input folder|warc|jsonl]
 *        [--d 0.03,0.04,0.05,0.06,0.08] [--verify-at 0,0.8,0.85,0.9] [--k 32] [--content main|page] [--json FILE]
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { init } from '../../src/index.js';
import { computeSignatures, exactJaccard, signatureReport } from '../../src/signatures/index.js';
import { readForSignatures } from '../../src/signatures/stream.js';
import { loadTruth, scoreSignatures } from './evaluate.js';

const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));

async function main() {
  const { values } = parseArgs({ options: { data: { type: 'string' }, input: { type: 'string' }, d: { type: 'string' }, 'verify-at': { type: 'string' }, k: { type: 'string' }, content: { type: 'string' }, json: { type: 'string' } } });
  if (!values.data) {
    console.error('give --data DIR (a crawl with its truth/)');
    process.exit(2);
  }
  const data = resolve(values.data);
  const input = { folder: join(data, 'crawl'), warc: join(data, 'crawl.warc.gz'), jsonl: join(data, 'crawl.jsonl') }[values.input ?? 'folder'];
  if (!input) throw new Error(`--input is folder, warc or jsonl, got ${values.input}`);
  await init();
  const truth = loadTruth(join(data, 'truth'));
  const read = await readForSignatures(input, { content: values.content === 'page' ? 'page' : 'main', shingleSets: true });
  const sets = read.sets!;
  const urls = read.graph.urls;
  const rows: Array<Record<string, number | string | null>> = [];
  console.log(`${urls.length} pages, ${truth.pairs.filter((p) => p.j8 >= 0.9).length} pairs with J ≥ 0.9 in the truth`);
  console.log('   K      D  verify  candidates  dropped   pairs  P(J≥0.8)  R(J≥0.9)  groups  largest');
  for (const k of (values.k ?? '32').split(',').map(Number)) {
    const sig = computeSignatures(read.bags, { offsets: read.graph.linkOffsets, targets: read.graph.linkTargets }, { k });
    for (const D of (values.d ?? '0.03,0.04,0.05,0.06,0.08').split(',').map(Number)) {
      for (const verifyAt of (values['verify-at'] ?? '0,0.8,0.85,0.9').split(',').map(Number)) {
        const verify = verifyAt > 0 ? (a: number, b: number) => exactJaccard(sets, a, b) >= verifyAt - 1e-12 : undefined;
        const report = signatureReport(sig.rp, sig.hm, k, { C: 2, D, maxPairs: 5_000_000, ...(verify ? { verify } : {}) });
        const records: object[] = [];
        for (let i = 0; i < report.pairs.a.length; i++) records.push({ a: urls[report.pairs.a[i]], b: urls[report.pairs.b[i]] });
        for (const g of report.groups) records.push({ members: g.members.map((m) => ({ url: urls[m.doc] })) });
        const s = scoreSignatures(truth, records);
        const row = { k, D, verifyAt, candidates: report.candidates, rejected: report.rejected, pairs: s.pairs, precision: s.precision, recall: s.recall, groups: s.groups, largest: s.largestGroup };
        rows.push(row);
        console.log(`${String(k).padStart(4)} ${String(D).padStart(6)} ${String(verifyAt).padStart(7)} ${String(row.candidates).padStart(11)} ${String(row.rejected).padStart(8)} ${String(row.pairs).padStart(7)}  ${f3(row.precision).padStart(8)}  ${f3(row.recall).padStart(8)}  ${String(row.groups).padStart(6)}  ${String(row.largest).padStart(7)}`);
      }
    }
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 1) + '\n');
}

if (process.argv[1]?.endsWith('signature-verification.ts')) await main();
