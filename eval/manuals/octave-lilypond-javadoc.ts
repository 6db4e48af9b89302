/**
 * A fourth realistic crawl, of generators none of the others has: the GNU Octave manual (Texinfo:
 * one small page per node, a Next/Previous/Up header naming the neighbouring nodes on every page,
 * many pages that are only a menu), the LilyPond manuals in Japanese (texi2html: a table of
 * contents beside every page, text without spaces) and the Apache Commons Lang API reference
 * (Javadoc: navigation bars, summary tables, and two major releases side by side on one host, as
 * the project's site keeps them). Origins that are part of a manual, a partial mirror of a partial
 * origin, an exact mirror under another prefix, a partial mirror re-encoded in EUC-JP, single pages
 * copied onto a blog, and no root pages.
 *
 *   node --max-old-space-size=8192 --import tsx eval/manuals/octave-lilypond-javadoc.ts [--sources DIR] [--out DIR]
 *
 * Same layout and truth files as build.ts (default output $RESEMBLE_DATA/fourth); score it with
 * `evaluate.ts --data DIR`.
 */
import { buildCrawl } from './build.js';
import type { CopySpec, Work } from './plan.js';
import type { Source } from './sources.js';

/** The sources: four Debian packages. */
export const FOURTH_SOURCES: Source[] = [
  { id: 'octave-7.3', kind: 'deb', package: 'octave-doc', version: '7.3.0-2', html: 'usr/share/doc/octave/octave.html',
    licence: 'GPL-3.0-or-later', upstream: 'GNU Octave 7.3.0 manual (Texinfo)' },
  { id: 'lilypond-ja', kind: 'deb', package: 'lilypond-doc-html-ja', version: '2.24.1-2', html: 'usr/share/doc/lilypond/html/Documentation', exclude: ['misc/'],
    licence: 'GFDL-1.3-or-later (no invariant sections)', upstream: 'LilyPond 2.24.1 manuals, Japanese translation (texi2html)' },
  { id: 'lang3-3.12', kind: 'deb', package: 'libcommons-lang3-java-doc', version: '3.12.0-2+deb12u1', html: 'usr/share/doc/libcommons-lang3-java/api',
    exclude: ['src-html/'], licence: 'Apache-2.0', upstream: 'Apache Commons Lang 3.12.0 API reference (Javadoc)' },
  { id: 'lang-2.6', kind: 'deb', package: 'libcommons-lang-java-doc', version: '2.6-10+deb12u1', html: 'usr/share/doc/libcommons-lang-java/api',
    exclude: ['src-html/'], licence: 'Apache-2.0', upstream: 'Apache Commons Lang 2.6 API reference (Javadoc, ISO-8859-1)' },
];

export const FOURTH_WORKS: Work[] = [
  { id: 'octave', title: 'GNU Octave manual (Texinfo)', releases: { 'octave-7.3': { release: '7.3.0', line: '7.3' } } },
  { id: 'lilypond-ja', title: 'LilyPond manuals, Japanese (texi2html)', releases: { 'lilypond-ja': { release: '2.24.1', line: '2.24' } } },
  // Two major releases of one library: the package was renamed (lang → lang3), so no page keeps its path
  // but the generic ones (index-all.html, help-doc.html, ...).
  { id: 'commons-lang', title: 'Apache Commons Lang API reference (Javadoc)', releases: {
    'lang3-3.12': { release: '3.12.0', line: '3' },
    'lang-2.6': { release: '2.6', line: '2' } } },
];

const part = (fraction: number, salt: string) => ({ fraction, salt });

export const FOURTH_COPIES: CopySpec[] = [
  // Octave: half the manual's nodes at the origin, a partial mirror of those pages on an FTP-style host.
  { id: 'octave-origin', work: 'octave', source: 'octave-7.3', host: 'docs.octave.example.org', prefix: '/doc/v7.3.0/', select: part(0.5, 'octave'), note: 'origin (part of the manual)' },
  { id: 'octave-partial', work: 'octave', source: 'octave-7.3', host: 'ftp.example.org', prefix: '/gnu/octave/doc/interpreter/', select: part(0.3, 'octave'),
    note: 'partial mirror of the origin\'s pages under another prefix' },
  // LilyPond in Japanese: the whole of it, and half of it mirrored in EUC-JP.
  { id: 'lilypond-ja-origin', work: 'lilypond-ja', source: 'lilypond-ja', host: 'lilypond.example.org', prefix: '/doc/v2.24/Documentation/', select: { all: true }, note: 'origin' },
  { id: 'lilypond-ja-eucjp', work: 'lilypond-ja', source: 'lilypond-ja', host: 'ongaku.example.jp', prefix: '/mirror/lilypond/', select: part(0.5, 'lilypond'), charset: 'EUC-JP',
    note: 'partial mirror under another prefix, re-encoded in EUC-JP' },
  // Commons Lang: the current reference and the 2.6 one side by side on the project's host, the
  // current one mirrored exactly on an Apache mirror.
  { id: 'lang3-origin', work: 'commons-lang', source: 'lang3-3.12', host: 'commons.example.org', prefix: '/proper/commons-lang/apidocs/', select: { all: true }, note: 'origin' },
  { id: 'lang-2.6', work: 'commons-lang', source: 'lang-2.6', host: 'commons.example.org', prefix: '/proper/commons-lang/javadocs/api-2.6/', select: { all: true },
    note: 'distant release beside it' },
  { id: 'lang3-mirror', work: 'commons-lang', source: 'lang3-3.12', host: 'apache.mirror.example.net', prefix: '/dist/commons/lang3/apidocs/', select: { all: true },
    note: 'exact mirror under another prefix' },
  // Single pages copied onto a blog with their names.
  { id: 'single-octave', work: 'octave', source: 'octave-7.3', host: 'blog.example.net', prefix: '/notes/',
    select: { single: [['Basic-Vectorization.html', 'Basic-Vectorization.html']] }, note: 'single page copied with its name' },
  { id: 'single-lang3', work: 'commons-lang', source: 'lang3-3.12', host: 'blog.example.net', prefix: '/java/',
    select: { single: [['org/apache/commons/lang3/StringUtils.html', 'StringUtils.html']] }, note: 'single page copied with its name' },
];

if (process.argv[1]?.endsWith('octave-lilypond-javadoc.ts')) await buildCrawl('fourth', FOURTH_SOURCES, FOURTH_WORKS, FOURTH_COPIES);
