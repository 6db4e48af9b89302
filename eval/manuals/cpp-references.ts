/**
 * A second realistic crawl, shaped differently from the first (plan.ts), to check that what was
 * chosen on the first holds on a crawl it was not chosen on: other manuals (the libstdc++ manual
 * and its Doxygen API reference, the Boost reference: generated pages with heavy shared
 * navigation), other prefixes and hosts, partial copies drawn by other salts and fractions (a
 * partial mirror of a partial origin), several releases on one archive host, a Latin-1 mirror, a
 * host holding copies of four manuals, single pages copied, and no root pages.
 *
 *   node --max-old-space-size=8192 --import tsx eval/manuals/cpp-references.ts [--sources DIR] [--out DIR]
 *
 * Same layout and truth files as build.ts (default output $RESEMBLE_DATA/second); score it with
 * `evaluate.ts --data DIR` and `curves.ts --data DIR`.
 */
import { buildCrawl } from './build.js';
import type { CopySpec, Work } from './plan.js';
import { SOURCES, type Source } from './sources.js';

/** The sources: two new Debian documentation packages, and releases of the first crawl's. */
export const SECOND_SOURCES: Source[] = [
  { id: 'libstdcxx-manual', kind: 'deb', package: 'libstdc++-12-doc', version: '12.2.0-14+deb12u1', html: 'usr/share/doc/gcc-12-base/libstdc++/manual',
    licence: 'GFDL-1.3 (documentation) / GPL-3.0 with runtime exception', upstream: 'The GNU C++ Library manual, GCC 12' },
  { id: 'libstdcxx-api', kind: 'deb', package: 'libstdc++-12-doc', version: '12.2.0-14+deb12u1', html: 'usr/share/doc/gcc-12-base/libstdc++/user',
    licence: 'GFDL-1.3 (documentation) / GPL-3.0 with runtime exception', upstream: 'The GNU C++ Library API reference (Doxygen), GCC 12' },
  { id: 'boost-ref', kind: 'deb', package: 'libboost1.81-doc', version: '1.81.0-5+deb12u1', html: 'usr/share/doc/libboost1.81-doc/doc/html/boost',
    licence: 'BSL-1.0', upstream: 'Boost 1.81 reference' },
  ...SOURCES.filter((s) => ['python-3.11-u9', 'python-3.11-u8', 'django-3.2-u7', 'django-3.2-u3', 'git-2.39-u3', 'git-2.39-u2', 'paper-0.12.18', 'paper-0.12.11', 'paper-0.10.3', 'gl-matrix-2.8.1', 'gl-matrix-2.4.0', 'haskell98'].includes(s.id)),
];

export const SECOND_WORKS: Work[] = [
  { id: 'libstdcxx-manual', title: 'The GNU C++ Library manual (DocBook)', releases: { 'libstdcxx-manual': { release: '12.2.0', line: '12' } } },
  { id: 'libstdcxx-api', title: 'The GNU C++ Library API reference (Doxygen)', releases: { 'libstdcxx-api': { release: '12.2.0', line: '12' } } },
  { id: 'boost-ref', title: 'Boost 1.81 reference (BoostBook)', releases: { 'boost-ref': { release: '1.81.0', line: '1.81' } } },
  { id: 'python-3.11', title: 'Python 3.11 documentation (Sphinx)', releases: {
    'python-3.11-u9': { release: '3.11.2-6+deb12u9', line: '3.11' }, 'python-3.11-u8': { release: '3.11.2-6+deb12u8', line: '3.11' } } },
  { id: 'django-3.2', title: 'Django 3.2 documentation (Sphinx)', releases: {
    'django-3.2-u7': { release: '3.2.25-0+deb12u7', line: '3.2' }, 'django-3.2-u3': { release: '3.2.25-0+deb12u3', line: '3.2' } } },
  { id: 'git-2.39', title: 'Git 2.39 documentation (AsciiDoc)', releases: {
    'git-2.39-u3': { release: '2.39.5-0+deb12u3', line: '2.39' }, 'git-2.39-u2': { release: '2.39.5-0+deb12u2', line: '2.39' } } },
  { id: 'paper', title: 'Paper.js reference (JSDoc)', releases: {
    'paper-0.12.18': { release: '0.12.18', line: '0.x' }, 'paper-0.12.11': { release: '0.12.11', line: '0.x' }, 'paper-0.10.3': { release: '0.10.3', line: '0.x' } } },
  { id: 'gl-matrix', title: 'glMatrix API documentation (JSDoc)', releases: {
    'gl-matrix-2.8.1': { release: '2.8.1', line: '2.8' }, 'gl-matrix-2.4.0': { release: '2.4.0', line: '2.4' } } },
  { id: 'haskell98', title: 'Haskell 98 Report', releases: { haskell98: { release: '20080907-10', line: '98' } } },
];

const part = (fraction: number, salt: string) => ({ fraction, salt });

export const SECOND_COPIES: CopySpec[] = [
  // The libstdc++ manual: origin, an exact mirror re-encoded in ISO-8859-1 under another prefix, and a partial mirror.
  { id: 'stdm-origin', work: 'libstdcxx-manual', source: 'libstdcxx-manual', host: 'gcc.example.org', prefix: '/onlinedocs/gcc-12.2.0/libstdc++/manual/', select: { all: true }, note: 'origin' },
  { id: 'stdm-latin1', work: 'libstdcxx-manual', source: 'libstdcxx-manual', host: 'ftp.example.edu', prefix: '/gnu/gcc/docs/libstdc++/manual/', select: { all: true }, charset: 'ISO-8859-1',
    note: 'exact mirror under another prefix, re-encoded in ISO-8859-1' },
  { id: 'stdm-partial', work: 'libstdcxx-manual', source: 'libstdcxx-manual', host: 'cache.example.net', prefix: '/c/manual/', select: part(0.4, 'stdm'), note: 'partial mirror under another prefix' },
  // The libstdc++ API reference: a sample of it as the origin, a partial mirror of that sample (same salt, smaller fraction).
  { id: 'stda-origin', work: 'libstdcxx-api', source: 'libstdcxx-api', host: 'gcc.example.org', prefix: '/onlinedocs/gcc-12.2.0/libstdc++/api/', select: part(0.12, 'api'), note: 'origin (a sample of the reference)' },
  { id: 'stda-partial', work: 'libstdcxx-api', source: 'libstdcxx-api', host: 'ftp.example.edu', prefix: '/gnu/gcc/docs/libstdc++/api/', select: part(0.05, 'api'), note: 'partial mirror of the origin\'s pages' },
  // Boost: a sample as origin, an exact mirror of it under a shallower prefix.
  { id: 'boost-origin', work: 'boost-ref', source: 'boost-ref', host: 'www.boost.example.org', prefix: '/doc/libs/1_81_0/doc/html/boost/', select: part(0.1, 'boost'), note: 'origin (a sample of the reference)' },
  { id: 'boost-mirror', work: 'boost-ref', source: 'boost-ref', host: 'boost.mirror.example.com', prefix: '/1.81/', select: part(0.1, 'boost'), note: 'exact mirror under another prefix' },
  // Python and Django: partial origins, lagging copies of the same pages on an archive host holding several manuals.
  { id: 'py-origin', work: 'python-3.11', source: 'python-3.11-u9', host: 'docs.python.example.net', prefix: '/3.11/', select: part(0.3, 'py'), note: 'origin (part of the manual)' },
  { id: 'py-old', work: 'python-3.11', source: 'python-3.11-u8', host: 'old.example.org', prefix: '/mirrors/python/3.11.2/', select: part(0.3, 'py'), note: 'lagging copy of the same pages' },
  { id: 'dj-origin', work: 'django-3.2', source: 'django-3.2-u7', host: 'django.example.net', prefix: '/docs/3.2/', select: part(0.3, 'dj'), note: 'origin (part of the manual)' },
  { id: 'dj-same', work: 'django-3.2', source: 'django-3.2-u7', host: 'django2.example.net', prefix: '/docs/3.2/', select: part(0.2, 'dj'), note: 'partial mirror at the same path' },
  { id: 'dj-old', work: 'django-3.2', source: 'django-3.2-u3', host: 'old.example.org', prefix: '/mirrors/django/', select: part(0.3, 'dj'), note: 'lagging copy' },
  // Git: two releases on two hosts, the older complete, the newer partial.
  { id: 'git-old', work: 'git-2.39', source: 'git-2.39-u2', host: 'kernel.example.org', prefix: '/pub/software/scm/git/docs/', select: { all: true }, note: 'origin of the older release' },
  { id: 'git-new', work: 'git-2.39', source: 'git-2.39-u3', host: 'git.example.com', prefix: '/htmldocs/', select: part(0.5, 'git2'), note: 'lagging pair: the newer release, partial' },
  // Paper.js: three releases on three hosts; glMatrix: two distant releases on the archive host and another.
  { id: 'paper-a', work: 'paper', source: 'paper-0.12.11', host: 'paper.example.org', prefix: '/docs/', select: { all: true }, note: 'origin' },
  { id: 'paper-b', work: 'paper', source: 'paper-0.12.18', host: 'old.example.org', prefix: '/mirrors/paperjs/', select: { all: true }, note: 'lagging (newer) copy' },
  { id: 'paper-c', work: 'paper', source: 'paper-0.10.3', host: 'js.example.com', prefix: '/paper/0.10/', select: part(0.7, 'paper'), note: 'lagging partial copy' },
  { id: 'glm-new', work: 'gl-matrix', source: 'gl-matrix-2.8.1', host: 'old.example.org', prefix: '/mirrors/gl-matrix/', select: { all: true }, note: 'origin' },
  { id: 'glm-old', work: 'gl-matrix', source: 'gl-matrix-2.4.0', host: 'js.example.com', prefix: '/glmatrix/2.4/', select: { all: true }, note: 'distant release on another host' },
  { id: 'haskell', work: 'haskell98', source: 'haskell98', host: 'haskell.example.net', prefix: '/report/', select: { all: true }, note: 'unrelated site' },
  // Single pages copied, names kept: same file name as the origin, one page on an unrelated host.
  { id: 'single-git', work: 'git-2.39', source: 'git-2.39-u2', host: 'notes.example.com', prefix: '/posts/', select: { single: [['git-rebase.html', 'git-rebase.html'], ['git-commit.html', 'git-commit.html']] },
    note: 'two single pages copied with their names' },
  { id: 'single-paper', work: 'paper', source: 'paper-0.12.11', host: 'notes.example.com', prefix: '/posts/', select: { single: [['classes/Path.html', 'Path.html']] }, note: 'single page copied' },
];

if (process.argv[1]?.endsWith('cpp-references.ts')) await buildCrawl('second', SECOND_SOURCES, SECOND_WORKS, SECOND_COPIES);
