/**
 * A third realistic crawl, of a shape neither of the others has: the Rust documentation as Debian
 * ships it (rust-doc 1.63). Four mdBook books (The Rust Programming Language, the Rustonomicon, the
 * Reference, Rust by Example) carry the same theme and a sidebar holding the book's whole table of
 * contents on every page (on short pages the navigation outweighs the text), each book has a
 * print.html holding every chapter at once, and a sample of the standard library's rustdoc
 * reference (a sidebar of every item of the module). Several books on one host under their own
 * directories, mirrors under other prefixes, a partial cache, a partial mirror of a partial origin,
 * single chapters copied onto a blog host, and no root pages.
 *
 *   node --max-old-space-size=8192 --import tsx eval/manuals/rust-books.ts [--sources DIR] [--out DIR]
 *
 * Same layout and truth files as build.ts (default output $RESEMBLE_DATA/third); score it with
 * `evaluate.ts --data DIR`. The books' older editions (book/first-edition, second-edition,
 * 2018-edition: pages of about 1.8 KB saying where the chapter moved) are left out: near-identical
 * stubs of a few words, which dups deliberately joins to byte-identical copies only.
 */
import { buildCrawl } from './build.js';
import type { CopySpec, Work } from './plan.js';
import type { Source } from './sources.js';

const RUST = { kind: 'deb', package: 'rust-doc', version: '1.63.0+dfsg1-2', licence: 'MIT OR Apache-2.0' } as const;
const HTML = 'usr/share/doc/rust-doc/html';

/** The sources: one Debian package, five folders of it. */
export const THIRD_SOURCES: Source[] = [
  { id: 'rust-book', ...RUST, html: `${HTML}/book`, exclude: ['first-edition/', 'second-edition/', '2018-edition/'], upstream: 'The Rust Programming Language (mdBook), Rust 1.63' },
  { id: 'rust-nomicon', ...RUST, html: `${HTML}/nomicon`, upstream: 'The Rustonomicon (mdBook), Rust 1.63' },
  { id: 'rust-reference', ...RUST, html: `${HTML}/reference`, upstream: 'The Rust Reference (mdBook), Rust 1.63' },
  { id: 'rust-by-example', ...RUST, html: `${HTML}/rust-by-example`, upstream: 'Rust by Example (mdBook), Rust 1.63' },
  { id: 'rust-std', ...RUST, html: `${HTML}/std`, upstream: 'The Rust standard library reference (rustdoc), Rust 1.63' },
];

const one = (id: string, title: string): Work => ({ id, title, releases: { [id]: { release: '1.63.0', line: '1.63' } } });

export const THIRD_WORKS: Work[] = [
  one('rust-book', 'The Rust Programming Language (mdBook)'),
  one('rust-nomicon', 'The Rustonomicon (mdBook)'),
  one('rust-reference', 'The Rust Reference (mdBook)'),
  one('rust-by-example', 'Rust by Example (mdBook)'),
  one('rust-std', 'The Rust standard library (rustdoc)'),
];

const part = (fraction: number, salt: string) => ({ fraction, salt });

export const THIRD_COPIES: CopySpec[] = [
  // Four books on one host, each under its own directory, with the same theme.
  { id: 'book-origin', work: 'rust-book', source: 'rust-book', host: 'doc.rust.example.org', prefix: '/1.63.0/book/', select: { all: true }, note: 'origin' },
  { id: 'nomicon-origin', work: 'rust-nomicon', source: 'rust-nomicon', host: 'doc.rust.example.org', prefix: '/1.63.0/nomicon/', select: { all: true }, note: 'origin' },
  { id: 'reference-origin', work: 'rust-reference', source: 'rust-reference', host: 'doc.rust.example.org', prefix: '/1.63.0/reference/', select: { all: true }, note: 'origin' },
  { id: 'rbe-origin', work: 'rust-by-example', source: 'rust-by-example', host: 'doc.rust.example.org', prefix: '/1.63.0/rust-by-example/', select: part(0.6, 'rbe'), note: 'origin (part of the book)' },
  { id: 'std-origin', work: 'rust-std', source: 'rust-std', host: 'doc.rust.example.org', prefix: '/1.63.0/std/', select: part(0.08, 'std'), note: 'origin (a sample of the reference)' },
  // A mirror host with two of the books and the reference sample under a shallower prefix.
  { id: 'book-mirror', work: 'rust-book', source: 'rust-book', host: 'rust.mirror.example.net', prefix: '/rust/book/', select: { all: true }, note: 'exact mirror under another prefix' },
  { id: 'nomicon-mirror', work: 'rust-nomicon', source: 'rust-nomicon', host: 'rust.mirror.example.net', prefix: '/rust/nomicon/', select: { all: true }, note: 'exact mirror under another prefix' },
  { id: 'std-mirror', work: 'rust-std', source: 'rust-std', host: 'rust.mirror.example.net', prefix: '/rust/std/', select: part(0.08, 'std'), note: 'exact mirror of the origin\'s sample' },
  // A cache holding part of the book, and a partial mirror of Rust by Example's partial origin (same salt, smaller fraction).
  { id: 'book-cache', work: 'rust-book', source: 'rust-book', host: 'cache.example.com', prefix: '/c/rustbook/', select: part(0.4, 'book'), note: 'partial copy under another prefix' },
  { id: 'rbe-partial', work: 'rust-by-example', source: 'rust-by-example', host: 'mirror.example.edu', prefix: '/pub/lang/rust/rbe/', select: part(0.3, 'rbe'), note: 'partial mirror of the origin\'s pages' },
  // The Reference mirrored on a university host under a deep prefix.
  { id: 'reference-mirror', work: 'rust-reference', source: 'rust-reference', host: 'mirror.example.edu', prefix: '/pub/lang/rust/1.63/reference/', select: { all: true }, note: 'exact mirror under another prefix' },
  // Single chapters copied onto a blog host with their names.
  { id: 'single-book', work: 'rust-book', source: 'rust-book', host: 'blog.example.org', prefix: '/notes/', select: { single: [['ch04-01-what-is-ownership.html', 'ch04-01-what-is-ownership.html'], ['ch15-01-box.html', 'ch15-01-box.html']] },
    note: 'two single chapters copied with their names' },
];

if (process.argv[1]?.endsWith('rust-books.ts')) await buildCrawl('third', THIRD_SOURCES, THIRD_WORKS, THIRD_COPIES);
