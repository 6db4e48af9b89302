// Revisit records: a copy of a page at another URI (a deduplicating crawler's revisit) is read as
// that page at the revisit's URI; re-captures of the same URI and revisits of records not read
// before are skipped, those of another URI with a message.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Document, ReadError } from '../../src/graph/document.js';
import { readCrawl } from '../../src/io/crawl.js';
import type { SkipEvent } from '../../src/io/options.js';
import { RecordReader } from '../../src/io/read-back.js';
import { readWarc } from '../../src/io/warc.js';
import { concat, gzipMembers, tempDir, warcRecord } from './fixtures.js';

const { dir, cleanup } = tempDir();
const enc = new TextEncoder();
const dec = new TextDecoder();

const PAGE = '<html><body><p>The quick brown fox jumps over the lazy dog, again and again.</p><a href="next.html">next</a></body></html>';
const DIGEST = 'sha1:2SUBQMKYHZBLXS2IXOG7WWV5PPJ5JRXE';
const http = (body: string) => `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${body}`;

function response(uri: string, body: string, digest: string, date = '2026-01-01T00:00:00Z'): Uint8Array {
  return warcRecord('response', { 'WARC-Target-URI': uri, 'WARC-Date': date, 'WARC-Payload-Digest': digest, 'Content-Type': 'application/http; msgtype=response' }, http(body));
}

function revisit(uri: string, digest: string, refers?: string, extra: Record<string, string> = {}): Uint8Array {
  return warcRecord('revisit', {
    'WARC-Target-URI': uri,
    'WARC-Date': '2026-01-02T00:00:00Z',
    'WARC-IP-Address': '192.0.2.7',
    'WARC-Profile': 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest',
    ...(refers ? { 'WARC-Refers-To-Target-URI': refers, 'WARC-Refers-To-Date': '2026-01-01T00:00:00Z' } : {}),
    'WARC-Payload-Digest': digest,
    'Content-Type': 'application/http; msgtype=response',
    ...extra,
  }, 'HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n');
}

async function read(paths: string | string[], reader: 'readCrawl' | 'readWarc' = 'readCrawl') {
  const docs: Document[] = [];
  const errors: ReadError[] = [];
  const skips: SkipEvent[] = [];
  const options = { onError: (e: ReadError) => errors.push(e), onSkip: (s: SkipEvent) => skips.push(s) };
  const it = reader === 'readCrawl' ? readCrawl(paths, options) : readWarc(paths as string, options);
  for await (const d of it) docs.push(d);
  return { docs, errors, skips };
}

const records = [
  response('http://docs.a.org/guide/intro.html', PAGE, DIGEST),
  revisit('http://mirror.b.net/pub/guide/intro.html', DIGEST, 'http://docs.a.org/guide/intro.html'),
  revisit('http://docs.a.org/guide/intro.html', DIGEST, 'http://docs.a.org/guide/intro.html'),
  revisit('http://docs.a.org/guide/intro.html', DIGEST, undefined, { 'WARC-Profile': 'http://netpreserve.org/warc/1.1/revisit/server-not-modified' }),
  revisit('http://mirror.b.net/pub/guide/other.html', 'sha1:AAAAQMKYHZBLXS2IXOG7WWV5PPJ5JRXE', 'http://docs.a.org/guide/other.html'),
  revisit('http://mirror.b.net/pub/guide/lone.html', 'sha1:BBBBQMKYHZBLXS2IXOG7WWV5PPJ5JRXE'),
];

for (const [name, bytes] of [['plain.warc', concat(records)], ['members.warc.gz', concat(gzipMembers(records))]] as const) {
  test(`${name}: a revisit of another URI is that page at the revisit's URI; the others are skipped`, async () => {
    const path = join(dir, name);
    writeFileSync(path, bytes);
    for (const reader of ['readCrawl', 'readWarc'] as const) {
      const { docs, errors, skips } = await read(path, reader);
      assert.equal(errors, []);
      assert.equal(docs.map((d) => d.url), ['http://docs.a.org/guide/intro.html', 'http://mirror.b.net/pub/guide/intro.html']);
      const [a, b] = docs;
      assert.equal(dec.decode(b.bytes), PAGE);
      assert.equal(b.bytes, a.bytes);
      assert.is(b.date, '2026-01-02T00:00:00Z', "the revisit's date");
      assert.is(b.ip, '192.0.2.7');
      assert.is(b.contentType, 'text/html');
      assert.equal(b.links, ['http://mirror.b.net/pub/guide/next.html'], "links resolved at the revisit's URI");
      assert.ok(b.source?.startsWith(`${path}#`) && b.source !== a.source, 'the revisit is its own source');
      assert.equal(b.origin, a.origin, "read back from the earlier record's place");
      // the same URI twice, a 304 re-capture, a record not read, one with no URI named: skipped
      assert.equal(skips.map((s) => s.reason), ['revisit', 'revisit', 'revisit', 'revisit']);
      const said = skips.filter((s) => s.message !== undefined);
      assert.is(said.length, 1, 'only the copy of another URI whose record is missing is explained');
      assert.match(said[0].message!, /revisit of "http:\/\/docs\.a\.org\/guide\/other\.html", whose record was not read before it/);
      // the exact checks read the copy back from the earlier record: the same bytes
      const reader2 = new RecordReader();
      try {
        const back = await reader2.read(b.origin!);
        assert.ok(typeof back !== 'string');
        assert.equal((back as Document).bytes, b.bytes);
      } finally {
        reader2.close();
      }
    }
  });
}

test('a revisit names a page of an earlier WARC file of the same input; not of a later one', async () => {
  const first = join(dir, 'first.warc.gz'), second = join(dir, 'second.warc.gz');
  writeFileSync(first, concat(gzipMembers([response('http://docs.a.org/guide/intro.html', PAGE, DIGEST)])));
  writeFileSync(second, concat(gzipMembers([revisit('http://mirror.b.net/guide/intro.html', DIGEST.toLowerCase(), 'http://docs.a.org/guide/intro.html')])));
  const inOrder = await read([first, second]);
  assert.equal(inOrder.docs.map((d) => d.url), ['http://docs.a.org/guide/intro.html', 'http://mirror.b.net/guide/intro.html'], 'digests compare without case');
  assert.equal(inOrder.docs[1].bytes, inOrder.docs[0].bytes);
  const reversed = await read([second, first]);
  assert.equal(reversed.docs.map((d) => d.url), ['http://docs.a.org/guide/intro.html']);
  assert.is(reversed.skips.length, 1);
  assert.match(reversed.skips[0].message!, /not read before it/);
});

test('a page that cannot be read again (one gzip stream) leaves its revisits skipped, said', async () => {
  const path = join(dir, 'stream.warc.gz');
  writeFileSync(path, gzipSync(concat([response('http://docs.a.org/x.html', PAGE, DIGEST), revisit('http://mirror.b.net/x.html', DIGEST, 'http://docs.a.org/x.html')])));
  const { docs, skips, errors } = await read(path);
  assert.equal(errors, []);
  assert.equal(docs.map((d) => d.url), ['http://docs.a.org/x.html']);
  assert.is(skips.length, 1);
  assert.match(skips[0].message!, /revisit of "http:\/\/docs\.a\.org\/x\.html"/);
});

test('an earlier record changed on disk since it was read: the revisit is an error naming both, reading goes on', async () => {
  const path = join(dir, 'changing.warc');
  const a = response('http://docs.a.org/x.html', PAGE, DIGEST);
  const b = revisit('http://mirror.b.net/x.html', DIGEST, 'http://docs.a.org/x.html');
  const c = response('http://docs.a.org/y.html', PAGE.replace('fox', 'cat'), 'sha1:CCCCQMKYHZBLXS2IXOG7WWV5PPJ5JRXE');
  writeFileSync(path, concat([a, b, c]));
  const docs: string[] = [];
  const errors: ReadError[] = [];
  for await (const d of readWarc(path, { onError: (e) => errors.push(e) })) {
    docs.push(d.url);
    // the first record overwritten while the input is read
    if (docs.length === 1) writeFileSync(path, concat([enc.encode('X'.repeat(a.length)), b, c]));
  }
  assert.equal(docs, ['http://docs.a.org/x.html', 'http://docs.a.org/y.html']);
  assert.is(errors.length, 1);
  assert.match(errors[0].message, /^revisit of "http:\/\/docs\.a\.org\/x\.html": its record at offset 0 of .* no longer reads as it did/);
  assert.match(errors[0].location, new RegExp(`offset ${a.length}$`));
});

test.after(cleanup);
test.run();
