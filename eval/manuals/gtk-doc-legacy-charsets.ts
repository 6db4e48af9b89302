/**
 * A fifth realistic crawl: GLib's reference (gtk-doc: the glib, gobject and gio books side by side,
 * linking to each other, a navigation bar and long symbol tables on every page) in two builds, a sample of GTK 4's reference
 * (gi-docgen: one small page per method, property and signal, each beside its class's sidebar),
 * and the Debian Administrator's Handbook in traditional Chinese, Korean and Russian, each mirrored
 * in a legacy charset with no declaration left (Big5, EUC-KR, KOI8-R: their servers sent the
 * charset in a header, which a wget mirror does not keep). A lagging mirror under another prefix,
 * a partial mirror, an exact mirror of a sampled origin, single pages on a blog, no root pages.
 *
 *   node --max-old-space-size=8192 --import tsx eval/manuals/gtk-doc-legacy-charsets.ts [--sources DIR] [--out DIR]
 *
 * Same layout and truth files as build.ts (default output $RESEMBLE_DATA/fifth); score it with
 * `evaluate.ts --data DIR`.
 */
import { buildCrawl } from './build.js';
import type { CopySpec, Work } from './plan.js';
import type { Source } from './sources.js';

const GLIB = (book: string, version: string) => ({ kind: 'deb', package: 'libglib2.0-doc', version, html: `usr/share/gtk-doc/html/${book}`, licence: 'LGPL-2.1-or-later' } as const);
/** GLib's three books, each a manual of its own folder (they link to each other). */
const BOOKS = ['glib', 'gobject', 'gio'] as const;
const HANDBOOK = (lang: string) => ({ kind: 'deb', package: 'debian-handbook', version: '11.20220922', html: `usr/share/doc/debian-handbook/html/${lang}`,
  licence: 'GPL-2.0-or-later OR CC-BY-SA-3.0' } as const);

/** The sources: GLib in two builds, GTK 4, three translations of the handbook. */
export const FIFTH_SOURCES: Source[] = [
  ...BOOKS.flatMap((b): Source[] => [
    { id: `${b}-u9`, ...GLIB(b, '2.74.6-2+deb12u9'), upstream: `${b} 2.74.6 reference (gtk-doc), Debian build deb12u9` },
    { id: `${b}-u2`, ...GLIB(b, '2.74.6-2+deb12u2'), upstream: `${b} 2.74.6 reference (gtk-doc), Debian build deb12u2` },
  ]),
  { id: 'gtk4', kind: 'deb', package: 'libgtk-4-doc', version: '4.8.3+ds-2+deb12u1', html: 'usr/share/doc/libgtk-4-doc/gtk4',
    licence: 'LGPL-2.1-or-later', upstream: 'GTK 4.8.3 reference (gi-docgen)' },
  { id: 'handbook-zh-tw', ...HANDBOOK('zh-TW'), upstream: 'The Debian Administrator\'s Handbook, traditional Chinese' },
  { id: 'handbook-ko', ...HANDBOOK('ko-KR'), upstream: 'The Debian Administrator\'s Handbook, Korean' },
  { id: 'handbook-ru', ...HANDBOOK('ru-RU'), upstream: 'The Debian Administrator\'s Handbook, Russian' },
];

const one = (id: string, title: string, release: string, line: string): Work => ({ id, title, releases: { [id]: { release, line } } });

export const FIFTH_WORKS: Work[] = [
  ...BOOKS.map((b): Work => ({ id: b, title: `${b} reference (gtk-doc)`, releases: {
    [`${b}-u9`]: { release: '2.74.6-2+deb12u9', line: '2.74' },
    [`${b}-u2`]: { release: '2.74.6-2+deb12u2', line: '2.74' } } })),
  one('gtk4', 'GTK 4 reference (gi-docgen)', '4.8.3', '4.8'),
  one('handbook-zh-tw', 'Debian Administrator\'s Handbook, traditional Chinese', '11.20220922', '11'),
  one('handbook-ko', 'Debian Administrator\'s Handbook, Korean', '11.20220922', '11'),
  one('handbook-ru', 'Debian Administrator\'s Handbook, Russian', '11.20220922', '11'),
];

const part = (fraction: number, salt: string) => ({ fraction, salt });

export const FIFTH_COPIES: CopySpec[] = [
  // GLib's books: the current build, the previous build mirrored under another prefix, a partial copy.
  ...BOOKS.flatMap((b): CopySpec[] => [
    { id: `${b}-origin`, work: b, source: `${b}-u9`, host: 'docs.gtk.example.org', prefix: `/glib/2.74/${b}/`, select: { all: true }, note: 'origin' },
    { id: `${b}-lagging`, work: b, source: `${b}-u2`, host: 'gnome.mirror.example.net', prefix: `/pub/gnome/docs/glib-2.74/${b}/`, select: { all: true },
      note: 'lagging mirror under another prefix: the previous build' },
    { id: `${b}-partial`, work: b, source: `${b}-u9`, host: 'ftp.example.edu', prefix: `/doc/glib/${b}/`, select: part(0.4, `${b}-partial`), note: 'partial mirror under another prefix' },
  ]),
  // GTK 4: a sample of the reference beside GLib's, mirrored exactly.
  { id: 'gtk4-origin', work: 'gtk4', source: 'gtk4', host: 'docs.gtk.example.org', prefix: '/gtk4/', select: part(0.1, 'gtk4'), note: 'origin (a sample of the reference)' },
  { id: 'gtk4-mirror', work: 'gtk4', source: 'gtk4', host: 'gnome.mirror.example.net', prefix: '/pub/gnome/docs/gtk4/', select: part(0.1, 'gtk4'),
    note: 'exact mirror of the origin\'s sample under another prefix' },
  // The handbook in three languages, each mirrored in a legacy charset without a declaration.
  { id: 'handbook-zh-tw-origin', work: 'handbook-zh-tw', source: 'handbook-zh-tw', host: 'handbook.example.org', prefix: '/zh-TW/', select: { all: true }, note: 'origin' },
  { id: 'handbook-zh-tw-big5', work: 'handbook-zh-tw', source: 'handbook-zh-tw', host: 'big5.example.tw', prefix: '/debian/handbook/', select: part(0.5, 'zh-tw'),
    charset: 'Big5', undeclared: true, note: 'partial mirror under another prefix, re-encoded in Big5 with no declaration' },
  { id: 'handbook-ko-origin', work: 'handbook-ko', source: 'handbook-ko', host: 'handbook.example.org', prefix: '/ko-KR/', select: { all: true }, note: 'origin' },
  { id: 'handbook-ko-euckr', work: 'handbook-ko', source: 'handbook-ko', host: 'mirror.example.kr', prefix: '/pub/debian-handbook/', select: { all: true },
    charset: 'EUC-KR', undeclared: true, note: 'exact mirror under another prefix, re-encoded in EUC-KR with no declaration' },
  { id: 'handbook-ru-origin', work: 'handbook-ru', source: 'handbook-ru', host: 'handbook.example.org', prefix: '/ru-RU/', select: { all: true }, note: 'origin' },
  { id: 'handbook-ru-koi8', work: 'handbook-ru', source: 'handbook-ru', host: 'koi8.example.ru', prefix: '/docs/handbook/', select: part(0.6, 'ru'),
    charset: 'KOI8-R', undeclared: true, note: 'partial mirror under another prefix, re-encoded in KOI8-R with no declaration' },
  // Single pages copied onto a blog with their names.
  { id: 'single-glib', work: 'glib', source: 'glib-u9', host: 'blog.example.com', prefix: '/notes/',
    select: { single: [['glib-Hash-Tables.html', 'glib-Hash-Tables.html']] }, note: 'single page copied with its name' },
];

if (process.argv[1]?.endsWith('gtk-doc-legacy-charsets.ts')) await buildCrawl('fifth', FIFTH_SOURCES, FIFTH_WORKS, FIFTH_COPIES);
