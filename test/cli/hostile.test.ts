/**
 * The command line on hostile input and hostile arguments: exit codes, one clear message naming
 * the file and record or offset, no stack trace, the good records out, inputs never changed, and
 * outputs either whole or absent.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { joinNegativeValues } from '../../src/cli/args.js';
import { main } from '../../src/cli/main.js';
import { concat, gzipMembers, httpResponse, tempDir, warcRecord } from '../io/fixtures.js';

const { dir, cleanup } = tempDir();
const bin = fileURLToPath(new URL('../../bin/resemble.js', import.meta.url));
const at = (name: string) => join(dir, name);
const STACK = /\n\s+at [^\n]+:\d+:\d+/;

const line = (url: string, text: string) => JSON.stringify({ url, text }) + '\n';
const words = (i: number) => `page ${i} has a few words of its own to sketch and compare`;
writeFileSync(at('v.jsonl'), Array.from({ length: 5 }, (_, i) => line(`http://a.org/${i}`, words(i))).join(''));
const original = readFileSync(at('v.jsonl'));

async function run(...argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  assert.not.match(err, STACK, 'no stack trace');
  return { code, out, err };
}

function resemble(args: string[], options: { input?: string | Uint8Array } = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', input: options.input, env: { ...process.env, FORCE_COLOR: '0' } });
  assert.not.match(r.stderr, STACK, `no stack trace from ${args.join(' ')}`);
  return r;
}

const unchanged = () => assert.ok(readFileSync(at('v.jsonl')).equals(original), 'the input is unchanged');

test('--out, --binary and index build refuse an output that is an input, by any path or link; the input is unchanged', async () => {
  symlinkSync(at('v.jsonl'), at('sym.jsonl'));
  linkSync(at('v.jsonl'), at('hard.jsonl'));
  mkdirSync(at('sub'));
  const cases = [
    ['sketch', at('v.jsonl'), '--out', at('v.jsonl')],
    ['sketch', at('v.jsonl'), '-o', join(dir, 'sub', '..', 'v.jsonl')],
    ['sketch', at('sym.jsonl'), '--out', at('hard.jsonl')],
    ['sketch', at('v.jsonl'), '--binary', at('sym.jsonl')],
    ['dups', at('v.jsonl'), '--out', at('hard.jsonl')],
    ['index', 'build', at('v.jsonl'), at('v.jsonl')],
    ['index', 'build', at('hard.jsonl'), at('sym.jsonl')],
  ];
  for (const argv of cases) {
    const r = await run(...argv);
    assert.is(r.code, 2, argv.join(' '));
    assert.match(r.err, /is the input .*v\.jsonl|is the input .*sym\.jsonl/);
    assert.match(r.err, 'refusing to overwrite what is being read');
    unchanged();
  }
});

test('an output inside an input folder is refused (it would be read as a page next time)', async () => {
  mkdirSync(at('site/a.org'), { recursive: true });
  writeFileSync(at('site/a.org/index.html'), `<p>${words(1)}</p>`);
  const r = await run('dups', at('site'), '--out', at('site/a.org/out.jsonl'));
  assert.is(r.code, 2);
  assert.match(r.err, 'is inside the input folder');
  assert.not.ok(existsSync(at('site/a.org/out.jsonl')));
  // a folder the run writes to (--temp-dir) is not an input: an output may go there
  mkdirSync(at('scratch'), { recursive: true });
  const ok = await run('dups', at('site'), '--engine', 'duckdb', '--temp-dir', at('scratch'), '--out', at('scratch/out.jsonl'));
  assert.is(ok.code, 0, ok.err);
  assert.ok(existsSync(at('scratch/out.jsonl')));
});

test('a failed run leaves no half-written output and keeps the old file; a good run replaces it whole', async () => {
  writeFileSync(at('old.jsonl'), 'old contents\n');
  const failed = await run('sketch', at('missing.jsonl'), '--out', at('old.jsonl'));
  assert.is(failed.code, 1);
  assert.match(failed.err, 'nothing usable was read');
  assert.is(readFileSync(at('old.jsonl'), 'utf8'), 'old contents\n');
  const none = await run('sketch', at('missing.jsonl'), '--out', at('new.jsonl'));
  assert.is(none.code, 1);
  assert.not.ok(existsSync(at('new.jsonl')));
  assert.equal(readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');
  const ok = await run('sketch', at('v.jsonl'), '--out', at('old.jsonl'), '-q');
  assert.is(ok.code, 0);
  assert.is(readFileSync(at('old.jsonl'), 'utf8').trim().split('\n').length, 5);
});

test('an output in a folder that does not exist is one clean E_IO line', async () => {
  const r = await run('sketch', at('v.jsonl'), '--out', at('no/such/dir/o.jsonl'));
  assert.is(r.code, 1);
  assert.match(r.err, /^resemble sketch: cannot write .*o\.jsonl: its folder does not exist\n$/);
});

test('negative, huge and out-of-range flag values are range errors (exit 2), not "argument is ambiguous"', async () => {
  const cases: Array<[string[], RegExp | string]> = [
    [['dups', at('v.jsonl'), '--threshold', '-1'], 'expected number 0..1 for --threshold, got "-1"'],
    [['sketch', at('v.jsonl'), '--seed', '-1'], 'for --seed, got "-1"'],
    [['sketch', at('v.jsonl'), '--seed', '18446744073709551616'], 'expected an integer 0..2^64−1 (decimal or 0x hex) for --seed, got "18446744073709551616"'],
    [['sketch', at('v.jsonl'), '--w', '-3'], 'for --w, got "-3"'],
    [['signatures', at('v.jsonl'), '--gamma', '2'], 'expected number 0..1 for --gamma, got "2"'],
    [['sketch', at('v.jsonl'), '--max-record', '-5'], 'for --max-record, got "-5"'],
    [['sketch', at('v.jsonl'), '--input-format', 'pdf'], 'expected one of warc|jsonl|urls|html|folder for --input-format'],
  ];
  for (const [argv, message] of cases) {
    const r = await run(...argv);
    assert.is(r.code, 2, argv.join(' '));
    assert.match(r.err, message);
    assert.not.match(r.err, 'ambiguous');
  }
  assert.equal(joinNegativeValues(['--threshold', '-1', '-q', '--', '--x', '-2'], { threshold: { type: 'string' }, quiet: { type: 'boolean', short: 'q' } }), ['--threshold=-1', '-q', '--', '--x', '-2']);
});

test('corrupt index files: a clean message naming the file (exit 1)', async () => {
  const built = await run('index', 'build', at('good.rsx'), at('v.jsonl'), '-q');
  assert.is(built.code, 0);
  const bytes = readFileSync(at('good.rsx'));
  writeFileSync(at('cut.rsx'), bytes.subarray(0, bytes.length >> 1));
  writeFileSync(at('junk.rsx'), 'definitely not an index');
  const flipped = Uint8Array.from(bytes);
  flipped[flipped.length >> 1] ^= 0xff;
  writeFileSync(at('flip.rsx'), flipped);
  for (const name of ['cut.rsx', 'junk.rsx', 'flip.rsx', 'none.rsx']) {
    for (const argv of [['query', '--index', at(name), at('v.jsonl')], ['index', 'clusters', at(name)], ['index', 'add', at(name), at('v.jsonl')]]) {
      const r = await run(...argv);
      assert.is(r.code, 1, argv.join(' '));
      assert.match(r.err, at(name));
    }
  }
});

test('compare on a PNG or an ELF binary: a clear error naming the file, exit 1', async () => {
  writeFileSync(at('pic.png'), Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52));
  writeFileSync(at('prog'), concat([Uint8Array.of(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0), new Uint8Array(64)]));
  writeFileSync(at('page.html'), `<p>${words(1)}</p>`);
  for (const bad of ['pic.png', 'prog']) {
    const r = await run('compare', at(bad), at('page.html'));
    assert.is(r.code, 1);
    assert.match(r.err, `cannot compare ${at(bad)}`);
    assert.match(r.err, 'binary content');
  }
});

test('a hostile WARC through the CLI: good records out, each problem one line naming the file and offset', async () => {
  const good = [httpResponse('http://a.org/1', words(1)), httpResponse('http://a.org/2', words(2))];
  const hostile = [
    httpResponse('file:///etc/passwd', words(3)),
    httpResponse('javascript:alert(1)', words(4)),
    warcRecord('response', { 'WARC-Target-URI': 'http://a.org/x' }, 'HTTP/1.1 200 OK\r\n\r\nshort', 400),
  ];
  const members = gzipMembers([good[0], hostile[0], hostile[1], good[1]]);
  const bad = members[3].slice();
  writeFileSync(at('h.warc.gz'), concat([...members, bad.subarray(0, 30)]));
  const before = readFileSync(at('h.warc.gz'));
  const r = await run('sketch', at('h.warc.gz'));
  assert.is(r.code, 0);
  assert.equal(r.out.trim().split('\n').map((l) => JSON.parse(l).url), ['http://a.org/1', 'http://a.org/2']);
  const offset = members.reduce((n, m) => n + m.length, 0);
  assert.match(r.err, `${at('h.warc.gz')} offset ${offset}: truncated gzip member at offset ${offset}`);
  assert.match(r.err, `${at('h.warc.gz')} offset ${members[0].length}: WARC-Target-URI "file:///etc/passwd" is not an http(s) URL`);
  assert.match(r.err, '2 skipped (url 2)');
  assert.ok(readFileSync(at('h.warc.gz')).equals(before));
});

test('bin: a write error on stdout other than EPIPE is one line and exit 1; standard input works with -', () => {
  const full = resemble(['sketch', at('v.jsonl'), '-q', '--out', '/dev/full']);
  assert.is(full.status, 1);
  assert.match(full.stderr, 'cannot write /dev/full');
  if (existsSync('/dev/full')) {
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${bin}" sketch "${at('v.jsonl')}" -q > /dev/full`], { encoding: 'utf8' });
    assert.is(r.status, 1);
    assert.is(r.stderr, 'resemble: cannot write to standard output: no space left on device (ENOSPC)\n');
  }
  const piped = resemble(['sketch', '-', '-q'], { input: readFileSync(at('v.jsonl')) });
  assert.is(piped.status, 0, piped.stderr);
  assert.is(piped.stdout.trim().split('\n').length, 5);
  const gz = resemble(['sketch', '-', '-q'], { input: gzipSync(readFileSync(at('v.jsonl'))) });
  assert.is(gz.stdout, piped.stdout, 'gzip on standard input reads the same');
  const html = resemble(['sketch', '-', '--input-format', 'html', '-q'], { input: `<p>${words(7)}</p>` });
  assert.match(html.stdout, '"url":"file:///dev/stdin"');
});

test('bin: a closed pipe (| head -1) ends the run quietly with exit 0, the first record whole', () => {
  writeFileSync(at('many.jsonl'), Array.from({ length: 3000 }, (_, i) => line(`http://b.org/${i}`, words(i))).join(''));
  const r = spawnSync('sh', ['-c', `"${process.execPath}" "${bin}" sketch "${at('many.jsonl')}" -q | head -1`], { encoding: 'utf8' });
  const [first] = r.stdout.split('\n');
  assert.equal(Object.keys(JSON.parse(first)).includes('url'), true, first);
  const piped = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${bin}" sketch "${at('many.jsonl')}" -q | head -1 >/dev/null`], { encoding: 'utf8' });
  assert.is(piped.status, 0, piped.stderr);
  assert.is(piped.stderr, '', 'nothing on stderr');
});

test.after(cleanup);
test.run();
