// study, signatures and mirrors read the crawl as a stream: their output equals, byte for byte,
// the output of the same commands as they were when they held the whole crawl in memory (kept in
// ./reference/ as the reference), on the bundled sample, its pages as JSONL and WARC, the
// realistic slice, a crawl with damaged records and one large enough to go through the page pool,
// with 1 and 2 workers. Read errors are reported as before.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main, type CommandRegistry } from '../../src/cli/main.js';
import { tempDir } from '../io/fixtures.js';
import { writeInputs } from './fixtures.js';

const { dir, cleanup } = tempDir();
const inputs = await writeInputs(dir);
const SLICE = join(process.cwd(), 'test/fixtures/realistic-slice/crawl');

// The sample's pages twice over (the copy on other hosts): more than one 4 MiB batch, so two workers run the page pool.
const dec = new TextDecoder();
const twice = join(dir, 'twice.jsonl');
writeFileSync(twice, [0, 1].flatMap((k) => inputs.docs.map((d) => JSON.stringify({ url: k ? d.url.replace('://', '://copy.') : d.url, html: dec.decode(d.utf8 ?? d.bytes) }))).join('\n') + '\n');
// Damaged records: a broken line, a record without a URL, a page whose URL cannot be parsed, and good pages.
const damaged = join(dir, 'damaged.jsonl');
writeFileSync(damaged, [
  ...inputs.docs.slice(0, 40).map((d) => JSON.stringify({ url: d.url, html: dec.decode(d.utf8 ?? d.bytes) })),
  '{"url": "http://broken.example/", "html": "<p>never closed',
  JSON.stringify({ html: '<p>no url</p>' }),
  JSON.stringify({ url: 'http://bad host.example/a.html', html: '<p>A page whose URL cannot be read.</p>' }),
  ...inputs.docs.slice(40, 80).map((d) => JSON.stringify({ url: d.url, html: dec.decode(d.utf8 ?? d.bytes) })),
].join('\n') + '\n');

const reference: CommandRegistry = {
  study: () => import('./reference/study.js'),
  signatures: () => import('./reference/signatures.js'),
  mirrors: () => import('./reference/mirrors.js'),
};

async function run(argv: string[], registry?: CommandRegistry) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) }, registry });
  return { code, out, err };
}

/** stderr without the read summary line (its wording is the streaming commands'): the errors reported and the command's own lines. */
const reported = (err: string) => err.split('\n').filter((l) => !/^read [\d,]+ (documents?|pages?) \(/.test(l)).map((l) => l.replace(/out-(ref|w\d)/g, 'out-X'));

/** Runs a command the old way and the streaming way with 1 and 2 workers; asserts the same exit code, stdout and reported lines, and returns the reference run. */
async function same(argv: string[], outputs: (tag: string) => string[] = () => []) {
  const tag = (t: string) => argv.map((a) => a.replace('@OUT@', join(dir, `out-${t}`)));
  // the reference commands keep the flag names of their time (--output and --plot are now --records and --plots)
  const renamed: Record<string, Record<string, string>> = { signatures: { '--records': '--output' }, mirrors: { '--plots': '--plot' } };
  const ref = await run(tag('ref').map((a) => renamed[argv[0]]?.[a] ?? a), reference);
  assert.is(ref.code, 0, ref.err);
  assert.ok(ref.out.length > 0, 'the reference writes something');
  for (const workers of ['1', '2']) {
    const got = await run([...tag(`w${workers}`), '--workers', workers]);
    assert.is(got.code, ref.code, got.err);
    assert.is(got.out, ref.out, `${argv.join(' ')} --workers ${workers}: stdout`);
    assert.equal(reported(got.err), reported(ref.err), `${argv.join(' ')} --workers ${workers}: stderr`);
    assert.match(got.err, /^read [\d,]+ pages? \(/m, 'the streaming summary line');
    for (const [a, b] of outputs('ref').map((f, i) => [f, outputs(`w${workers}`)[i]])) assert.is(readFileSync(b, 'utf8'), readFileSync(a, 'utf8'), `${b} equals ${a}`);
  }
  return ref;
}

const KINDS = { folder: inputs.folder, jsonl: inputs.jsonl, 'warc.gz': inputs.warc, slice: SLICE } as const;

for (const [kind, path] of Object.entries(KINDS)) {
  test(`study (${kind}): the same tables and JSON as the in-memory study, for 1 and 2 workers`, async () => {
    const md = await same(['study', path]);
    assert.match(md.out, /\*\*Table 2\.\*\*/);
    const json = await same(['study', path, '--format', 'json', '--near', '90,50', '--parts', '3']);
    const report = JSON.parse(json.out);
    assert.ok(report.general.clusters > 0 && report.documents.considered > 10, `${report.general.clusters} clusters`);
    await same(['study', path, '--format', 'jsonl', '--seeds', report.seeds[0].url, '--min-chars', '200', '--sentences', '2', '--plots', '@OUT@'],
      (t) => ['cluster-sizes.svg', 'growth.svg'].map((f) => join(dir, `out-${t}`, f)));
  });

  test(`signatures (${kind}): the same pairs, groups and evaluation as in memory, content and page mode, for 1 and 2 workers`, async () => {
    const r = await same(['signatures', path]);
    assert.ok(r.out.split('\n').filter((l) => l.startsWith('{"a"')).length > 10, 'colliding pairs');
    await same(['signatures', path, '--content', 'page', '--records', 'groups', '--k', '16', '--D', '0.05']);
    await same(['signatures', path, '--content', 'main', '--verify-at', '0.7']);
    await same(['signatures', path, '--verify-at', '0']);
    if (kind === 'folder' || kind === 'slice') {
      const ev = await same(['signatures', path, '--evaluate', '--plots', '@OUT@'], (t) => [join(dir, `out-${t}`, 'precision-recall.svg')]);
      assert.ok(ev.out.includes('pairPrecision'));
      await same(['signatures', path, '--evaluate', '--content', 'page', '--pair-recall-at', '0.8']);
    }
  });

  test(`mirrors (${kind}): the same ranked pairs and verdicts as in memory, for 1 and 2 workers`, async () => {
    const r = await same(['mirrors', path, '--algorithm', 'hybrid', '--verify']);
    assert.ok(r.out.includes('"mirror":true'), 'some pair is a mirror');
    await same(['mirrors', path, '--verify', '--top', '8', '--threshold', '0.8']);
    await same(['mirrors', path, '--algorithm', 'hosts']);
    if (kind === 'folder') {
      await same(['mirrors', path, '--ips', join(path, 'hosts.txt'), '--verify', '--infer', '--link-urls']);
      const truth = join(dir, 'truth.txt');
      writeFileSync(truth, (JSON.parse(readFileSync(join(path, 'truth.json'), 'utf8')).mirrors as string[][]).map((p) => p.join(' ')).join('\n') + '\n');
      await same(['mirrors', path, '--truth', truth]);
      // --plots without --truth: every algorithm's top pairs verified and pooled.
      await same(['mirrors', path, '--plots', '@OUT@', '--top', '12'], (t) => readdirSync(join(dir, 'out-ref')).map((f) => join(dir, `out-${t}`, f)));
    }
  });
}

test('a crawl of several batches goes through the page pool with the same output', async () => {
  await same(['study', twice, '--format', 'json']);
  await same(['signatures', twice]);
  await same(['mirrors', twice, '--algorithm', 'hybrid', '--verify']);
});

test('damaged records are reported and skipped as before', async () => {
  for (const argv of [['study', damaged], ['signatures', damaged, '--content', 'page'], ['mirrors', damaged, '--verify']]) {
    const r = await same(argv);
    assert.match(r.err, /damaged\.jsonl line 41/, r.err);
    assert.match(r.err, /damaged\.jsonl line 42/, r.err);
  }
});

test('nothing usable: exit 1 with the same message; a URL list has no content for hybrid', async () => {
  const empty = join(dir, 'empty.jsonl');
  writeFileSync(empty, '\n');
  for (const cmd of ['study', 'signatures', 'mirrors']) {
    const ref = await run([cmd, empty], reference), got = await run([cmd, empty]);
    assert.is(got.code, 1);
    assert.is(ref.code, 1);
    assert.match(got.err, /nothing usable was read/);
  }
  const ref = await run(['mirrors', inputs.urls, '--algorithm', 'hybrid'], reference), got = await run(['mirrors', inputs.urls, '--algorithm', 'hybrid']);
  assert.is(got.code, ref.code);
  assert.equal(reported(got.err), reported(ref.err));
});

test.after(cleanup);
test.run();
