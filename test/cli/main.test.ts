import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ResembleError } from '../../src/errors.js';
import type { Command } from '../../src/cli/command.js';
import { main, type CommandRegistry } from '../../src/cli/main.js';
import { openCrawl } from '../../src/cli/input.js';
import { createRecordWriter } from '../../src/cli/output.js';
import { formatOf } from '../../src/cli/args.js';
import { tempDir } from '../io/fixtures.js';

const { dir, cleanup } = tempDir();
mkdirSync(join(dir, 'mirror', 'a.org'), { recursive: true });
writeFileSync(join(dir, 'mirror', 'a.org', 'index.html'), '<p>a page</p>');
writeFileSync(join(dir, 'broken.jsonl'), 'not json\n{"url": 3}\n');

const echo: Command = {
  name: 'echo',
  summary: 'writes its inputs back',
  usage: 'Usage: resemble echo [--n N] INPUT...',
  options: { n: { type: 'string' } },
  async run(ctx) {
    const crawl = await openCrawl(ctx, ctx.positionals);
    const w = createRecordWriter(ctx.out, formatOf(ctx.values));
    for (const d of crawl.documents) w.write({ url: d.url, ratio: 2 / 3, nested: { n: ctx.values.n ?? null } });
    w.end();
    return 0;
  },
};
const failing: Command = { ...echo, name: 'failing', summary: 'throws', async run() { throw new ResembleError('E_ENGINE', 'engine missing'); } };
const registry: CommandRegistry = {
  echo: async () => ({ command: echo }),
  failing: async () => ({ command: failing }),
  unbuilt: () => import('./no-such-command-module.js' as string),
};

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false }, registry });
  return { code, out, err };
}

test('--help lists every command with its summary; no arguments is exit 2', async () => {
  const r = await run(['--help']);
  assert.is(r.code, 0);
  assert.match(r.out, /echo\s+writes its inputs back/);
  assert.match(r.out, /unbuilt\s+\(not available in this build\)/);
  assert.match(r.out, '--format');
  const none = await run([]);
  assert.is(none.code, 2);
  assert.match(none.err, 'Usage: resemble <command>');
});

test('<cmd> --help prints its usage and the shared flags; help <cmd> too', async () => {
  for (const argv of [['echo', '--help'], ['echo', '-h'], ['help', 'echo']]) {
    const r = await run(argv);
    assert.is(r.code, 0);
    assert.match(r.out, 'Usage: resemble echo [--n N] INPUT...');
    assert.match(r.out, '-o, --out FILE');
  }
});

test('--version prints the package version', async () => {
  const r = await run(['--version']);
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.is(r.out.trim(), pkg.version);
});

test('unknown command, bad flag, bad --format, missing input: exit 2 with a clear message', async () => {
  const a = await run(['frobnicate']);
  assert.is(a.code, 2);
  assert.match(a.err, 'unknown command "frobnicate"');
  const b = await run(['echo', '--nope', join(dir, 'mirror')]);
  assert.is(b.code, 2);
  assert.match(b.err, "Unknown option '--nope'");
  const c = await run(['echo', '--format', 'xml', join(dir, 'mirror')]);
  assert.is(c.code, 2);
  assert.match(c.err, 'expected one of jsonl|json|csv for --format, got "xml"');
  const d = await run(['echo']);
  assert.is(d.code, 2);
  assert.match(d.err, 'expected at least one input');
});

test('a command module that fails to load is a clean error (exit 1)', async () => {
  const r = await run(['unbuilt', 'x']);
  assert.is(r.code, 1);
  assert.match(r.err, 'the unbuilt command is not available in this build');
});

test('nothing usable read: read errors with locations on stderr, exit 1', async () => {
  const r = await run(['echo', join(dir, 'broken.jsonl')]);
  assert.is(r.code, 1);
  assert.match(r.err, `${join(dir, 'broken.jsonl')} line 1: not JSON`);
  assert.match(r.err, 'line 2: expected a string "url"');
  assert.match(r.err, 'read 0 documents');
  assert.match(r.err, '2 errors');
  assert.match(r.err, 'nothing usable was read');
  const q = await run(['echo', '--quiet', join(dir, 'broken.jsonl')]);
  assert.is(q.code, 1);
  assert.not.match(q.err, 'line 1');
  assert.not.match(q.err, 'read 0 documents');
});

test('a failing command maps to exit 1 with its message', async () => {
  const r = await run(['failing', 'x']);
  assert.is(r.code, 1);
  assert.match(r.err, 'resemble failing: engine missing');
});

test('output formats through main: jsonl (default), json, csv, and --out FILE', async () => {
  const input = join(dir, 'mirror');
  const j = await run(['echo', input, '--n', '5']);
  assert.is(j.code, 0);
  assert.is(j.out, '{"url":"http://a.org/","ratio":0.6667,"nested":{"n":"5"}}\n');
  assert.match(j.err, 'read 1 document');
  const a = await run(['echo', input, '--format', 'json']);
  assert.equal(JSON.parse(a.out), [{ url: 'http://a.org/', ratio: 0.6667, nested: { n: null } }]);
  const c = await run(['echo', input, '-f', 'csv']);
  assert.is(c.out, 'record,url,ratio,nested.n\n0,http://a.org/,0.6667,\n');
  const file = join(dir, 'out.jsonl');
  const o = await run(['echo', input, '--out', file, '-q']);
  assert.equal([o.code, o.out, o.err], [0, '', '']);
  assert.is(readFileSync(file, 'utf8'), j.out.replace('"5"', 'null'));
});

test.after(cleanup);
test.run();
