/**
 * A sixth realistic crawl: releases side by side. One host keeps every manual under one folder, a
 * manual's releases one folder deeper (`/docs/python/3.11.2-u8/` beside `/docs/python/3.11.2-u9/`,
 * three Paper.js releases, two Django builds, the libstdc++ manual beside a sample of its Doxygen
 * reference, a sample of Boost's); most of them are also mirrored alone on hosts of their own,
 * exactly, partly, or with their links made absolute. Sphinx, JSDoc, DocBook, Doxygen and
 * BoostBook templates, each heavy. Read it walked folder by folder (`evaluate.ts --data DIR`) and
 * breadth-first (`--input interleaved`): a site per manual root must not depend on the order.
 *
 *   node --max-old-space-size=8192 --import tsx eval/manuals/releases-side-by-side.ts [--sources DIR] [--out DIR]
 *
 * Same layout and truth files as build.ts (default output $RESEMBLE_DATA/sixth).
 */
import { buildCrawl } from './build.js';
import type { CopySpec } from './plan.js';
import { SECOND_SOURCES, SECOND_WORKS } from './cpp-references.js';

const part = (fraction: number, salt: string) => ({ fraction, salt });
const SHARED = 'docs.example.net';

export const SIXTH_COPIES: CopySpec[] = [
  // Python: two builds side by side on the shared host (the same 30% of the pages), the newer mirrored alone.
  { id: 'py-u8-shared', work: 'python-3.11', source: 'python-3.11-u8', host: SHARED, prefix: '/docs/python/3.11.2-u8/', select: part(0.3, 'six-py'),
    note: 'previous build, beside the current one' },
  { id: 'py-u9-shared', work: 'python-3.11', source: 'python-3.11-u9', host: SHARED, prefix: '/docs/python/3.11.2-u9/', select: part(0.3, 'six-py'), note: 'origin' },
  { id: 'py-u9-mirror', work: 'python-3.11', source: 'python-3.11-u9', host: 'python.mirror.example.org', prefix: '/3.11/', select: part(0.3, 'six-py'),
    note: 'exact mirror alone under another prefix' },
  // Django: two builds side by side; a partial mirror of the newer one.
  { id: 'dj-u3-shared', work: 'django-3.2', source: 'django-3.2-u3', host: SHARED, prefix: '/docs/django/3.2.25-u3/', select: part(0.4, 'six-dj'),
    note: 'previous build, beside the current one' },
  { id: 'dj-u7-shared', work: 'django-3.2', source: 'django-3.2-u7', host: SHARED, prefix: '/docs/django/3.2.25-u7/', select: part(0.4, 'six-dj'), note: 'origin' },
  { id: 'dj-u7-partial', work: 'django-3.2', source: 'django-3.2-u7', host: 'mirror.example.com', prefix: '/pub/django/3.2/', select: part(0.2, 'six-dj'),
    note: 'partial mirror of the origin\'s pages under another prefix' },
  // Paper.js: three releases side by side; the newest mirrored alone with its links made absolute.
  { id: 'paper-0.10.3-shared', work: 'paper', source: 'paper-0.10.3', host: SHARED, prefix: '/docs/paper/0.10.3/', select: { all: true }, note: 'old release' },
  { id: 'paper-0.12.11-shared', work: 'paper', source: 'paper-0.12.11', host: SHARED, prefix: '/docs/paper/0.12.11/', select: { all: true }, note: 'old release' },
  { id: 'paper-0.12.18-shared', work: 'paper', source: 'paper-0.12.18', host: SHARED, prefix: '/docs/paper/0.12.18/', select: { all: true }, note: 'origin' },
  { id: 'paper-0.12.18-alone', work: 'paper', source: 'paper-0.12.18', host: 'paper.mirror.example.net', prefix: '/reference/', select: { all: true },
    absoluteLinksTo: 'paper-0.12.18-alone', note: 'mirror alone, links made absolute' },
  // libstdc++: the manual and a sample of the API reference side by side; the manual mirrored alone.
  { id: 'stdm-shared', work: 'libstdcxx-manual', source: 'libstdcxx-manual', host: SHARED, prefix: '/docs/gcc-12/libstdc++/manual/', select: { all: true }, note: 'origin' },
  { id: 'stda-shared', work: 'libstdcxx-api', source: 'libstdcxx-api', host: SHARED, prefix: '/docs/gcc-12/libstdc++/api/', select: part(0.06, 'six-api'), note: 'origin (a sample)' },
  { id: 'stdm-mirror', work: 'libstdcxx-manual', source: 'libstdcxx-manual', host: 'ftp.example.edu', prefix: '/gnu/libstdc++/manual/', select: { all: true },
    note: 'exact mirror alone under another prefix' },
  // Boost: a sample on the shared host and its exact mirror.
  { id: 'boost-shared', work: 'boost-ref', source: 'boost-ref', host: SHARED, prefix: '/docs/boost/1.81/', select: part(0.05, 'six-boost'), note: 'origin (a sample)' },
  { id: 'boost-mirror', work: 'boost-ref', source: 'boost-ref', host: 'boost.mirror.example.com', prefix: '/1.81/', select: part(0.05, 'six-boost'),
    note: 'exact mirror alone under another prefix' },
];

if (process.argv[1]?.endsWith('releases-side-by-side.ts')) await buildCrawl('sixth', SECOND_SOURCES, SECOND_WORKS, SIXTH_COPIES);
