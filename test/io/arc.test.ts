// ARC files (the format before WARC): framed here, read as the same pages of a WARC would be.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Document, ReadError } from '../../src/graph/document.js';
import { arcDate, parseArcHeader } from '../../src/io/arc.js';
import { readCrawl } from '../../src/io/crawl.js';
import type { SkipEvent } from '../../src/io/options.js';
import { sniffKind } from '../../src/io/sniff.js';
import { concat, tempDir } from './fixtures.js';

const { dir, cleanup } = tempDir();
const enc = new TextEncoder();
const dec = new TextDecoder();

const PAGE = '<html><body><p>An archived page from the nineties, with enough words in it.</p><a href="b.html">b</a></body></html>';
const http = (body: string, status = '200 OK') => `HTTP/1.0 ${status}\r\nContent-Type: text/html\r\nContent-Length: ${enc.encode(body).length}\r\n\r\n${body}`;

/** One ARC record: the header line (its fields, then the block's length), the block, a newline. */
function arc(head: string, block: string): Uint8Array {
  const b = enc.encode(block);
  return concat([enc.encode(`${head} ${b.length}\n`), b, enc.encode('\n')]);
}
const V1 = arc('filedesc://IA-001.arc 0.0.0.0 19960923142103 text/plain', '1 0 Alexa Internet\nURL IP-address Archive-date Content-type Archive-length\n');
const V2 = arc('filedesc://IA-002.arc 0.0.0.0 20050614070159 text/plain 200 - - 0 IA-002.arc', '2 0 Internet Archive\nURL IP-address Archive-date Content-type Result-code Checksum Location Offset Filename Archive-length\n');

async function read(path: string) {
  const docs: Document[] = [];
  const errors: ReadError[] = [];
  const skips: SkipEvent[] = [];
  for await (const d of readCrawl(path, { onError: (e) => errors.push(e), onSkip: (s) => skips.push(s) })) docs.push(d);
  return { docs, errors, skips };
}

test('header lines: the URL keeps its spaces, the fields count from the end; dates to ISO', () => {
  assert.equal(parseArcHeader('http://a.org/x?q=a b c 192.0.2.1 19970101120000 text/html 42', 5), { url: 'http://a.org/x?q=a b c', ip: '192.0.2.1', date: '19970101120000', type: 'text/html', length: 42 });
  assert.equal(parseArcHeader('http://a.org/ 192.0.2.1 20050614070159 text/html 200 ABCD - 0 f.arc 7', 10)?.length, 7);
  assert.is(parseArcHeader('http://a.org/ 192.0.2.1 20050614070159 text/html -1', 5), undefined);
  assert.is(parseArcHeader('<html> 1 2 3 4', 5), undefined);
  assert.is(arcDate('19960923142103'), '1996-09-23T14:21:03Z');
  assert.is(arcDate('199609231421'), '1996-09-23T14:21:00Z');
  assert.is(arcDate('n/a'), undefined);
  assert.is(sniffKind(V1), 'warc');
});

test('a version 1 ARC: pages as from a WARC; dns: and non-2xx records counted, not said', async () => {
  for (const [name, bytes] of [['v1.arc', concat([
    V1,
    arc('dns:www.a.org 192.0.2.9 19960923142104 text/dns', '19960923142104\nwww.a.org. 86400 IN A 192.0.2.1\n'),
    arc('http://www.a.org/ 192.0.2.1 19960923142105 text/html', http(PAGE)),
    arc('http://www.a.org/gone.html 192.0.2.1 19960923142106 text/html', http('<p>gone</p>', '404 Not Found')),
    arc('http://www.a.org/search?q=two words 192.0.2.1 19960923142107 text/html', http(PAGE.replace('nineties', 'eighties'))),
  ])], ['v1.arc.gz', concat([V1, arc('http://www.a.org/ 192.0.2.1 19960923142105 text/html', http(PAGE))].map((r) => new Uint8Array(gzipSync(r))))]] as const) {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    const { docs, errors, skips } = await read(path);
    assert.equal(errors, [], name);
    const first = docs[0];
    assert.is(first.url, 'http://www.a.org/');
    assert.is(dec.decode(first.bytes), PAGE);
    assert.is(first.date, '1996-09-23T14:21:05Z');
    assert.is(first.ip, '192.0.2.1');
    assert.is(first.status, 200);
    assert.equal(first.links, ['http://www.a.org/b.html']);
    if (name === 'v1.arc') {
      assert.equal(docs.map((d) => d.url), ['http://www.a.org/', 'http://www.a.org/search?q=two%20words']);
      assert.equal(skips.map((s) => [s.reason, s.message]), [['url', undefined], ['status', undefined]]);
      assert.match(first.source!, /v1\.arc#\d+$/);
    } else {
      assert.is(docs.length, 1);
      assert.is(first.source, `${path}#${gzipSync(V1).length}`, "a record's gzip member offset");
    }
  }
});

test('a version 2 ARC: the field list of its filedesc record decides where the URL ends', async () => {
  const path = join(dir, 'v2.arc');
  writeFileSync(path, concat([V2, arc('http://www.b.org/a b.html 192.0.2.2 20050614070200 text/html 200 SHA1XYZ - 1234 IA-002.arc', http(PAGE))]));
  const { docs, errors } = await read(path);
  assert.equal(errors, []);
  assert.equal(docs.map((d) => [d.url, d.date]), [['http://www.b.org/a%20b.html', '2005-06-14T07:02:00Z']]);
});

test('damage: a bad header line is one error and reading resumes at the next record; a truncated record ends the file, the pages before it kept', async () => {
  const path = join(dir, 'damaged.arc');
  const good = arc('http://www.a.org/ 192.0.2.1 19960923142105 text/html', http(PAGE));
  const cut = arc('http://www.a.org/last.html 192.0.2.1 19960923142109 text/html', http(PAGE));
  writeFileSync(path, concat([V1, enc.encode('http://www.a.org/bad 192.0.2.1 1996 text/html -1\nsome stray bytes\nmore of them\n'), good, cut.subarray(0, cut.length - 30)]));
  const { docs, errors } = await read(path);
  assert.equal(docs.map((d) => d.url), ['http://www.a.org/']);
  assert.is(errors.length, 2);
  assert.match(errors[0].message, /^malformed ARC record header "http:\/\/www\.a\.org\/bad .*": \d+ bytes skipped to the next record$/);
  assert.match(errors[1].message, /^truncated record: \d+ bytes missing of its Archive-length \d+$/);
});

test.after(cleanup);
test.run();
