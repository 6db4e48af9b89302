// WACZ packages (Browsertrix, ArchiveWeb.page): their WARC files under archive/ read in place, in
// name order, as one input; records keep their offsets in the package, so pages are read back
// from there, and a revisit may name a record of an earlier WARC of the package.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Document, ReadError } from '../../src/graph/document.js';
import { readCrawl } from '../../src/io/crawl.js';
import { RecordReader } from '../../src/io/read-back.js';
import { zipEntries } from '../../src/io/zip.js';
import { concat, gzipMembers, httpResponse, tempDir, warcRecord, zipStored } from './fixtures.js';

const { dir, cleanup } = tempDir();
const enc = new TextEncoder();
const dec = new TextDecoder();
const page = (n: number) => `<html><body><p>Page ${n} of an archived site, with a few words to read.</p></body></html>`;
const DIGEST = 'sha1:PAGE2DIGESTXXXXXXXXXXXXXXXXXXXXX';

const first = concat(gzipMembers([
  httpResponse('http://a.org/1', page(1)),
  warcRecord('response', { 'WARC-Target-URI': 'http://a.org/2', 'WARC-Date': '2026-01-01T00:00:00Z', 'WARC-Payload-Digest': DIGEST, 'Content-Type': 'application/http; msgtype=response' },
    `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n${page(2)}`),
]));
const second = concat(gzipMembers([
  httpResponse('http://a.org/3', page(3)),
  warcRecord('revisit', {
    'WARC-Target-URI': 'http://mirror.b.net/2', 'WARC-Date': '2026-01-02T00:00:00Z', 'WARC-Payload-Digest': DIGEST,
    'WARC-Profile': 'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest', 'WARC-Refers-To-Target-URI': 'http://a.org/2',
    'Content-Type': 'application/http; msgtype=response',
  }, 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n'),
]));
const entries = [
  { name: 'datapackage.json', bytes: enc.encode('{"profile": "data-package"}') },
  // listed out of name order: read in name order
  { name: 'archive/rec-2.warc.gz', bytes: second },
  { name: 'archive/rec-1.warc.gz', bytes: first },
  { name: 'pages/pages.jsonl', bytes: enc.encode('{"format": "json-pages-1.0"}\n{"url": "http://a.org/1"}\n') },
];

async function read(path: string) {
  const docs: Document[] = [];
  const errors: ReadError[] = [];
  for await (const d of readCrawl(path, { onError: (e) => errors.push(e) })) docs.push(d);
  return { docs, errors };
}

for (const zip64 of [false, true]) {
  test(`a WACZ${zip64 ? ' (ZIP64)' : ''}: its WARC files in name order, a revisit naming a page of the other file, pages read back from the package`, async () => {
    const path = join(dir, `site${zip64 ? '64' : ''}.wacz`);
    const bytes = zipStored(entries, { zip64 });
    writeFileSync(path, bytes);
    const { docs, errors } = await read(path);
    assert.equal(errors, []);
    assert.equal(docs.map((d) => d.url), ['http://a.org/1', 'http://a.org/2', 'http://a.org/3', 'http://mirror.b.net/2']);
    assert.is(dec.decode(docs[3].bytes), page(2));
    // offsets are the package's: a source points at its record's gzip member there
    const at = zipEntries(path).find((e) => e.name === 'archive/rec-1.warc.gz')!.offset;
    assert.is(docs[0].source, `${path}#${at}`);
    assert.equal(bytes.subarray(at, at + 2), new Uint8Array([0x1f, 0x8b]));
    const reader = new RecordReader();
    try {
      for (const d of docs) {
        const back = await reader.read(d.origin!);
        assert.ok(typeof back !== 'string', String(back));
        assert.equal((back as Document).bytes, d.bytes, d.url);
      }
    } finally {
      reader.close();
    }
  });
}

test('a WACZ under another name is known by its first bytes when read as WARC', async () => {
  const path = join(dir, 'site.zip');
  writeFileSync(path, zipStored(entries));
  const docs: string[] = [];
  for await (const d of readCrawl(path, { kind: 'warc' })) docs.push(d.url);
  assert.equal(docs, ['http://a.org/1', 'http://a.org/2', 'http://a.org/3', 'http://mirror.b.net/2']);
});

test('a WARC compressed inside the zip is named and skipped; the others are read', async () => {
  const path = join(dir, 'deflated.wacz');
  writeFileSync(path, zipStored(entries, { deflate: 'archive/rec-1.warc.gz' }));
  const { docs, errors } = await read(path);
  assert.equal(docs.map((d) => d.url), ['http://a.org/3']);
  assert.equal(errors.map((e) => e.location), ['archive/rec-1.warc.gz']);
  assert.match(errors[0].message, /compressed inside the zip \(method 8\)/);
});

test('not a zip, or a zip without archive/: one clear error', async () => {
  const bad = join(dir, 'bad.wacz');
  writeFileSync(bad, enc.encode('this is not a zip file at all'));
  const a = await read(bad);
  assert.equal(a.docs, []);
  assert.match(a.errors[0].message, /not a zip file: no end of central directory record: a \.wacz is a zip file holding WARC files under archive\//);
  const empty = join(dir, 'empty.wacz');
  writeFileSync(empty, zipStored([entries[0]]));
  const b = await read(empty);
  assert.equal(b.errors.map((e) => e.message), ['no WARC file under archive/ in this WACZ']);
});

test.after(cleanup);
test.run();
