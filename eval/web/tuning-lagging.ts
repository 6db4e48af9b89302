/**
 * A second tuning crawl (defaults may be fitted on it) for the URL rules (DUST): lagging mirrors
 * whose changed pages are spread over the manual, beside exact mirrors of the current build, as
 * the reporting crawls hold them and tuning-web.ts does not (its lagging Git mirror changed in two
 * folders only). The Django 3.2 documentation in two Debian builds (u7 current, u3 lagging) on an
 * origin with www. and https aliases and session ids, an exact mirror under another prefix, a
 * lagging mirror under another prefix and a lagging partial mirror at the origin's path; the
 * Debian New Maintainers' Guide on shared hosting with a soft-404 host. Every phenomenon of
 * phenomena.ts. Its sources are those of the realistic tuning crawl.
 *
 *   node --max-old-space-size=8192 --import tsx eval/web/tuning-lagging.ts [--sources DIR] [--out DIR] [--seed N]
 *
 * Default output $RESEMBLE_DATA/tuning-lagging; the files and truth of phenomena.ts. Another seed
 * is the same sites crawled again (`--seed 4152 --out "$RESEMBLE_DATA/tuning-lagging-recrawl"`).
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { dataDirs } from '../manuals/build.js';
import type { CopySpec, Work } from '../manuals/plan.js';
import { SOURCES, type Source } from '../manuals/sources.js';
import { buildWebCrawl, DEFAULT_RATES, type WebCrawlSpec, type WebHost } from './phenomena.js';

const pick = (ids: string[]): Source[] => ids.map((id) => SOURCES.find((s) => s.id === id)!);

export const LAGGING_SOURCES: Source[] = [
  ...pick(['django-3.2-u7', 'django-3.2-u3']),
  { id: 'maint-guide', kind: 'deb', package: 'maint-guide', version: '1.2.53', html: 'usr/share/doc/maint-guide/html', licence: 'GPL-2.0+', upstream: 'Debian New Maintainers\' Guide 1.2.53' },
];

export const LAGGING_WORKS: Work[] = [
  { id: 'django-3.2', title: 'Django 3.2 documentation (Sphinx)', releases: { 'django-3.2-u7': { release: '3.2.25-0+deb12u7', line: '3.2' }, 'django-3.2-u3': { release: '3.2.25-0+deb12u3', line: '3.2' } } },
  { id: 'maint-guide', title: 'Debian New Maintainers\' Guide', releases: { 'maint-guide': { release: '1.2.53', line: '1.2' } } },
];

const all = { all: true as const };

export const LAGGING_COPIES: CopySpec[] = [
  { id: 'dj-origin', work: 'django-3.2', source: 'django-3.2-u7', host: 'www.djangodocs.example.com', prefix: '/en/3.2/', select: all, note: 'origin' },
  { id: 'dj-mirror', work: 'django-3.2', source: 'django-3.2-u7', host: 'ftp.example.edu', prefix: '/pub/django/docs/', select: all, note: 'exact mirror under another prefix' },
  { id: 'dj-lagging', work: 'django-3.2', source: 'django-3.2-u3', host: 'docs-eu.example.net', prefix: '/django/3.2/', select: all, note: 'lagging mirror: the previous build, under another prefix' },
  { id: 'dj-lagging-part', work: 'django-3.2', source: 'django-3.2-u3', host: 'cache.example.org', prefix: '/en/3.2/', select: { fraction: 0.4, salt: 'lag' }, note: 'lagging partial mirror at the origin\'s path' },
  { id: 'maint', work: 'maint-guide', source: 'maint-guide', host: 'maint.example.info', prefix: '/doc/maint-guide/', select: all, note: 'unrelated site on shared hosting' },
];

const SHARED = '198.18.95.7';

export const LAGGING_HOSTS: WebHost[] = [
  { host: 'www.djangodocs.example.com', ip: '198.18.70.2', role: 'origin server', www: true, https: true, session: 'sid' },
  { host: 'ftp.example.edu', ip: '198.18.71.4', role: 'university mirror', https: true, server: 'Apache/2.4.62' },
  { host: 'docs-eu.example.net', ip: '198.18.72.8', role: 'lagging mirror', session: 'PHPSESSID', server: 'nginx/1.22.1' },
  { host: 'cache.example.org', ip: SHARED, role: 'shared hosting: a lagging partial copy', server: 'LiteSpeed' },
  { host: 'maint.example.info', ip: SHARED, role: 'shared hosting, the hoster\'s not-found page', server: 'LiteSpeed', softNotFound: 'stock' },
  { host: 'parked.example.biz', ip: SHARED, role: 'parked domain', server: 'LiteSpeed', softNotFound: 'stock' },
];

export const LAGGING_SPEC: WebCrawlSpec = {
  name: 'tuning-lagging', seed: 4151, sources: LAGGING_SOURCES, works: LAGGING_WORKS, copies: LAGGING_COPIES, hosts: LAGGING_HOSTS,
  assets: ['dj-origin'], rates: DEFAULT_RATES,
};

async function main() {
  const { values } = parseArgs({ options: { sources: { type: 'string' }, out: { type: 'string' }, seed: { type: 'string' } } });
  const data = process.env.RESEMBLE_DATA;
  const dirs = dataDirs({ sources: values.sources, out: values.out ?? (data ? join(data, LAGGING_SPEC.name) : undefined) });
  const summary = await buildWebCrawl(values.seed === undefined ? LAGGING_SPEC : { ...LAGGING_SPEC, seed: Number(values.seed) }, dirs);
  console.log(JSON.stringify(summary, null, 1));
}

if (process.argv[1]?.endsWith('tuning-lagging.ts')) await main();
