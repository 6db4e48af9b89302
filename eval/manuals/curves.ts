/**
 * The curves behind the defaults of `mirrors` and `signatures`, measured on a realistic crawl
 * (the folder build.ts wrote) against its truth:
 *
 *   node --import tsx eval/manuals/curves.ts [--data DIR] [--only mirrors,signatures] [--json FILE]
 *
 * mirrors: verdict precision and recall over the host pairs that mirror a collection, for the
 * mirroring rule's page threshold × agreement, on the hybrid ranking's candidate pairs (page
 * sketches, as `mirrors --algorithm hybrid` compares them).
 * [--k 5,10,20] [--d 0.005,…] [--c 0.02,…,2] (the signature grid; C = 2 is RP only)
 *
 * signatures: pair precision (colliding pairs with exact word-8 Jaccard ≥ 0.8) and recall (pairs
 * with Jaccard ≥ 0.9 that collide) for K × D × C, and the same for the non-chaining groups.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { init } from '../../src/index.js';
import { loadCrawl } from '../../src/io/index.js';
import { hostContentFromDocuments, HostSet, LinkTable, mirrorInputFromDocuments, rankAll, sketchEvidence } from '../../src/mirrors/index.js';
import { cliqueGroups, computeSignatures, crawlBags, findCollisions, RP_ONLY_C } from '../../src/signatures/index.js';
import { loadTruth } from './evaluate.js';

const f3 = (x: number | null) => (x === null ? '—' : x.toFixed(3));
const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

async function main() {
  const { values } = parseArgs({ options: { data: { type: 'string' }, only: { type: 'string' }, json: { type: 'string' }, k: { type: 'string' }, d: { type: 'string' }, c: { type: 'string' } } });
  const data = values.data ?? (process.env.RESEMBLE_DATA ? join(process.env.RESEMBLE_DATA, 'realistic') : undefined);
  if (!data) {
    console.error('give --data DIR (the folder build.ts wrote) or set RESEMBLE_DATA');
    process.exit(2);
  }
  const only = values.only?.split(',') ?? ['mirrors', 'signatures'];
  await init();
  const truth = loadTruth(join(resolve(data), 'truth'));
  const crawl = await loadCrawl(join(resolve(data), 'crawl'), { links: true });
  const out: Record<string, unknown> = {};

  if (only.includes('mirrors')) {
    const input = mirrorInputFromDocuments(crawl.documents);
    const hosts = HostSet.fromUrls(input.urls, { ips: input.ips, locations: input.locations });
    const content = hostContentFromDocuments(hosts, crawl.documents);
    const { hybrid } = rankAll(hosts, LinkTable.fromDocuments(hosts, crawl.documents), content, {}, ['hybrid']);
    const positive = new Set(truth.hostPairs.filter((p) => p.mirror).map((p) => [p.a, p.b].sort().join(' ')));
    const rows: Array<Record<string, number | null>> = [];
    console.log(`mirrors: ${hybrid!.length} candidate pairs, ${positive.size} mirrored host pairs in the truth`);
    console.log('threshold agreement  said  true  precision  recall  undetermined');
    for (const threshold of [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9]) {
      for (const agreement of [0.5, 0.75, 0.9]) {
        const evidence = sketchEvidence(content, { threshold, agreement });
        let said = 0, tp = 0, undetermined = 0;
        for (let i = 0; i < hybrid!.length; i++) {
          const a = hosts.hosts[hybrid!.a[i]], b = hosts.hosts[hybrid!.b[i]];
          const v = evidence(a, b)?.verdict ?? 'undetermined';
          if (v === 'undetermined') undetermined++;
          if (v !== 'mirror') continue;
          said++;
          if (positive.has([a, b].sort().join(' '))) tp++;
        }
        const row = { threshold, agreement, said, truePositives: tp, precision: ratio(tp, said), recall: ratio(tp, positive.size), undetermined };
        rows.push(row);
        console.log(`${String(threshold).padStart(9)} ${String(agreement).padStart(9)} ${String(said).padStart(5)} ${String(tp).padStart(5)}  ${f3(row.precision).padStart(9)}  ${f3(row.recall).padStart(6)}  ${String(undetermined).padStart(12)}`);
      }
    }
    out.mirrors = rows;
  }

  if (only.includes('signatures')) {
    // Crawl DocIds ↔ truth page indexes by URL.
    const pageOf = Int32Array.from(crawl.graph.urls, (u) => truth.index.get(u) ?? -1);
    const key = (x: number, y: number) => (x < y ? `${x} ${y}` : `${y} ${x}`);
    const j8 = (a: number, b: number) => (pageOf[a] < 0 || pageOf[b] < 0 ? 0 : truth.j8.get(key(pageOf[a], pageOf[b])) ?? 0);
    const docOf = new Map<number, number>();
    pageOf.forEach((p, d) => p >= 0 && docOf.set(p, d));
    const wanted = truth.pairs.filter((p) => p.j8 >= 0.9 && docOf.has(p.a) && docOf.has(p.b)).map((p) => key(docOf.get(p.a)!, docOf.get(p.b)!));
    const bags = crawlBags(crawl.documents);
    const links = { offsets: crawl.graph.linkOffsets, targets: crawl.graph.linkTargets };
    const rows: Array<Record<string, number | null | string>> = [];
    console.log(`signatures: ${crawl.documents.length} pages, ${wanted.length} pairs with J ≥ 0.9`);
    console.log('   K      D      C     pairs  P(J≥0.8)  R(J≥0.9)  groups  group pairs  gP      gR');
    for (const k of (values.k ?? '5,10,20').split(',').map(Number)) {
      const sig = computeSignatures(bags, links, { k });
      for (const D of (values.d ?? '0.005,0.01,0.02,0.03,0.05').split(',').map(Number)) {
        for (const C of (values.c ?? `0.02,0.05,0.1,0.2,${RP_ONLY_C}`).split(',').map(Number)) {
          let pairs;
          try {
            pairs = findCollisions(sig.rp, sig.hm, k, { C, D, maxPairs: 2_000_000 });
          } catch {
            console.log(`${String(k).padStart(4)} ${String(D).padStart(6)} ${String(C).padStart(6)}  more than 2,000,000 pairs`);
            continue;
          }
          const found = new Set<string>();
          let good = 0;
          for (let i = 0; i < pairs.a.length; i++) {
            found.add(key(pairs.a[i], pairs.b[i]));
            if (j8(pairs.a[i], pairs.b[i]) >= 0.8) good++;
          }
          const recall = ratio(wanted.filter((w) => found.has(w)).length, wanted.length);
          const groups = cliqueGroups(sig.size, pairs);
          const groupPairs = new Set<string>();
          for (const g of groups) for (let x = 0; x < g.members.length; x++) for (let y = x + 1; y < g.members.length; y++) groupPairs.add(key(g.members[x].doc, g.members[y].doc));
          let gGood = 0;
          for (const p of groupPairs) {
            const [x, y] = p.split(' ').map(Number);
            if (j8(x, y) >= 0.8) gGood++;
          }
          const row = {
            k, D, C: C === RP_ONLY_C ? 'RP only' : C, pairs: pairs.a.length, precision: ratio(good, pairs.a.length), recall,
            groups: groups.length, groupPairs: groupPairs.size, groupPrecision: ratio(gGood, groupPairs.size), groupRecall: ratio(wanted.filter((w) => groupPairs.has(w)).length, wanted.length),
          };
          rows.push(row);
          console.log(`${String(k).padStart(4)} ${String(D).padStart(6)} ${String(row.C).padStart(6)} ${String(row.pairs).padStart(9)}  ${f3(row.precision).padStart(8)}  ${f3(row.recall).padStart(8)}  ${String(row.groups).padStart(6)}  ${String(row.groupPairs).padStart(11)}  ${f3(row.groupPrecision)}  ${f3(row.groupRecall)}`);
        }
      }
    }
    out.signatures = rows;
  }
  if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 1) + '\n');
}

if (process.argv[1]?.endsWith('curves.ts')) await main();
