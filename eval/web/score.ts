/**
 * Scores how a web crawl of phenomena.ts is read (issue 41 item 3), against its truth/records.jsonl:
 * the crawl's two sweeps are read as two files, as a crawler's output is, and what the library
 * makes of each record is compared with what the record is:
 *
 * - variants: the share of variant URLs joined to their page, and with the rule the truth names;
 * - soft-404s: recall and precision of the pages flagged, and those left in the evidence (pages);
 * - redirects: read as edges (and where they lead), never as pages;
 * - non-page records (stylesheets, scripts, robots.txt): counted as skipped, never pages;
 * - revisits and re-captures of the second sweep: joined to the first sweep's page, never a page of their own;
 * - addresses: pages with their WARC-IP-Address, bad ones reported;
 * - the broken records: each reported, nothing else lost;
 * - mirrors: precision and recall of the default verdicts (mirror-extent.ts's scoring), with
 *   the addresses of the WARC only (no --ips file) and with the truth's hosts.txt.
 *
 *   node --import tsx eval/web/score.ts --data DIR [--json FILE] [--no-mirrors]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readCrawl } from '../../src/io/crawl.js';
import { CrawlPhenomena, ROLE_PAGE, ROLE_SOFT_404, ROLE_VARIANT } from '../../src/io/crawl-phenomena.js';
import type { ReadError } from '../../src/graph/document.js';
import { normalizeUrl } from '../../src/graph/url.js';
import type { RecordTruth } from './phenomena.js';
import { runCrawl, scoreAt } from '../mirror-extent.js';
import { RULE_DEFAULTS } from '../../src/mirrors/verdict.js';

const norm = (u: string) => normalizeUrl(u) ?? u;

/** Takes a crawl folder of eval/web; returns the phenomena figures (see the module comment). */
export async function scorePhenomena(data: string) {
  const truth: RecordTruth[] = readFileSync(join(data, 'truth', 'records.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const collector = new CrawlPhenomena();
  const errors: ReadError[] = [];
  const messages: string[] = [];
  const urls: string[] = [];
  const ips: (string | undefined)[] = [];
  const fromSecond: boolean[] = [];
  const skipped: Record<string, number> = {};
  for await (const doc of readCrawl([join(data, 'sweep-1.warc.gz'), join(data, 'sweep-2.warc.gz')], {
    links: false,
    onError: (e) => errors.push(e),
    onSkip: (s) => { collector.skipped(s); skipped[s.reason] = (skipped[s.reason] ?? 0) + 1; if (s.message) messages.push(s.message); },
  })) {
    collector.observe(doc, urls.length);
    urls.push(norm(doc.url));
    ips.push(doc.ip);
    fromSecond.push(doc.source?.includes('sweep-2.warc.gz') === true);
  }
  const report = collector.report();
  const docsOf = new Map<string, number[]>();
  urls.forEach((u, d) => docsOf.set(u, [...(docsOf.get(u) ?? []), d]));
  const first = (u: string) => docsOf.get(norm(u))?.[0];
  const variantOf = new Map(report.variants.map((v) => [v.id, v]));

  // variants: joined to their page, with the rule
  const variants = truth.filter((r) => r.kind === 'variant');
  let joined = 0, ruled = 0;
  const missed: string[] = [];
  for (const r of variants) {
    const d = first(r.uri);
    const v = d === undefined ? undefined : variantOf.get(d);
    if (v && norm(v.page) === norm(r.canonical!)) {
      joined++;
      if (v.rules.includes(r.rule as never)) ruled++;
    } else if (missed.length < 10) missed.push(`${r.rule} ${r.uri} → ${v ? v.page : d === undefined ? 'not read' : 'a page of its own'}`);
  }
  // pages of the truth that were taken for variants of another page (joined wrongly)
  const pageRecords = truth.filter((r) => r.kind === 'page');
  const pagesJoinedAway = pageRecords.filter((r) => { const d = first(r.uri); return d !== undefined && report.roles[d] === ROLE_VARIANT && norm(variantOf.get(d)!.page) !== norm(r.uri); }).length;
  const pagesLost = pageRecords.filter((r) => first(r.uri) === undefined).length;
  const pagesFlaggedSoft = pageRecords.filter((r) => { const d = first(r.uri); return d !== undefined && report.roles[d] === ROLE_SOFT_404; });

  // soft-404s
  const soft = truth.filter((r) => r.kind === 'soft-404');
  const softFlagged = soft.filter((r) => { const d = first(r.uri); return d !== undefined && report.roles[d] === ROLE_SOFT_404; }).length;
  const softInEvidence = soft.filter((r) => { const d = first(r.uri); return d !== undefined && report.roles[d] === ROLE_PAGE; }).length;
  const flagged = report.soft404.length;

  // redirects, non-pages, revisits
  const redirects = truth.filter((r) => r.kind === 'redirect' || (r.kind === 'broken' && /redirect|location/.test(r.rule ?? '')));
  const redirectsAsPages = redirects.filter((r) => first(r.uri) !== undefined).length;
  const edges = new Map(report.redirects.map((e) => [e.from, e]));
  const goodRedirects = truth.filter((r) => r.kind === 'redirect');
  const redirectsToTheirPage = goodRedirects.filter((r) => norm(edges.get(norm(r.uri))?.final ?? '') === norm(r.canonical!)).length;
  const nonPages = truth.filter((r) => r.kind === 'asset' || r.kind === 'robots');
  const nonPagesAsPages = nonPages.filter((r) => first(r.uri) !== undefined).length;
  const second = truth.filter((r) => r.file === 'sweep-2.warc.gz' && (r.kind === 'revisit' || r.kind === 'recapture'));
  const secondAsPages = second.filter((r) => { const ds = docsOf.get(norm(r.uri)) ?? []; return ds.filter((d) => report.roles[d] === ROLE_PAGE).length !== 1 && r.kind !== 'revisit'; }).length;
  // documents read from the second sweep that are no re-capture (a revisit read as a page of its own)
  const recaptures = second.filter((r) => r.kind === 'recapture').length;
  const revisitPagesKept = fromSecond.filter(Boolean).length - recaptures;
  const revisitHtml = second.filter((r) => r.kind === 'revisit').length;

  // addresses
  const withIp = ips.filter((x) => x !== undefined).length;
  const broken = truth.filter((r) => r.kind === 'broken' || r.rule === 'relative location');
  // errors, and the skips said in words (the command line prints both)
  const said = (re: RegExp) => errors.some((e) => re.test(e.message)) || report.errors.some((e) => re.test(e.message)) || messages.some((m) => re.test(m));
  const brokenReported = {
    'redirect loop': said(/redirect loop/),
    'broken location': said(/Location .* is not a URL/),
    'address not an IP': said(/is not an IP address/),
    'revisit of a missing record': said(/was not read before it/),
    'relative location resolved': report.redirects.some((e) => e.relative && e.page),
    'every path answers (parked domain)': report.warnings.some((w) => w.code === 'W_SOFT_404'),
  };
  return {
    records: truth.length, documents: urls.length, skipped, notPages: report.notPages,
    variants: { total: variants.length, joined, withRule: ruled, share: variants.length ? joined / variants.length : null, missed },
    pages: { total: pageRecords.length, lost: pagesLost, joinedToAnother: pagesJoinedAway, flaggedSoft404: pagesFlaggedSoft.length, flaggedExamples: pagesFlaggedSoft.slice(0, 5).map((r) => r.uri) },
    soft404: { total: soft.length, flagged: softFlagged, recall: soft.length ? softFlagged / soft.length : null, precision: flagged ? softFlagged / flagged : null, leftInEvidence: softInEvidence, hosts: report.soft404Hosts },
    redirects: { total: redirects.length, asPages: redirectsAsPages, edges: report.redirects.length, toTheirPage: redirectsToTheirPage, of: goodRedirects.length },
    nonPages: { total: nonPages.length, asPages: nonPagesAsPages },
    secondSweep: { records: second.length, recapturesNotJoined: secondAsPages, revisitsOfPages: revisitHtml, revisitsReadAsPages: revisitPagesKept },
    addresses: { documents: urls.length, withIp },
    hostAliases: report.hostAliases,
    broken: { records: broken.length, reported: brokenReported, errors: errors.length + report.errors.length },
  };
}

async function main() {
  const { values } = parseArgs({ options: { data: { type: 'string' }, json: { type: 'string' }, 'no-mirrors': { type: 'boolean' } } });
  if (!values.data) { console.error('give --data DIR (a crawl built by eval/web)'); process.exit(2); }
  const data = resolve(values.data);
  const out: Record<string, unknown> = { phenomena: await scorePhenomena(data) };
  if (!values['no-mirrors']) {
    for (const ips of [false, true]) {
      const s = scoreAt(runCrawl(data, { ips }), RULE_DEFAULTS.minShare);
      out[ips ? 'mirrorsWithIpsFile' : 'mirrors'] = { precision: s.precision, recall: s.recall, tp: s.tp, fp: s.fp, positives: s.positives, copiedCalled: s.copiedCalled, copiedNegatives: s.copiedNegatives, wrong: s.wrong };
    }
  }
  console.log(JSON.stringify(out, null, 1));
  if (values.json) writeFileSync(values.json, JSON.stringify(out, null, 1) + '\n');
}

if (process.argv[1]?.endsWith('score.ts')) await main();
