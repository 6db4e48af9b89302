// One name for one thing across commands: --common-cap, --out FILE, --plots DIR, --records LIST,
// --table-prefix; a flag of an earlier version is refused (exit 2, coded) with the name that replaced it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) } });
  return { code, out, err };
}

const CASES: [string[], string][] = [
  [['plan', '--cap', '500'], '--cap is now --common-cap N'],
  [['plan', '--prefix', 'web.r_'], '--prefix is now --table-prefix P in plan'],
  [['dups', 'sample', '--cap', '5'], '--cap is now --common-cap N'],
  [['dups', 'sample', '--output', 'x.jsonl'], '--output is now --out FILE'],
  [['signatures', 'sample', '--output', 'pairs'], '--output is now --records LIST in signatures'],
  [['mirrors', 'sample', '--plot', 'figs'], '--plot is now --plots DIR'],
  [['collections', 'sample', '--plot=figure12.svg'], '--plot is now --plots DIR'],
];

for (const [argv, message] of CASES) {
  test(`${argv.join(' ')}: refused, naming the new flag`, async () => {
    const r = await run(argv);
    assert.is(r.code, 2, r.err);
    assert.ok(r.err.includes(message), r.err);
    assert.is(r.out, '');
  });
}

test('the new names are taken', async () => {
  const r = await run(['plan', '--common-cap', '500', '--table-prefix', 'web.r_', '--dialect', 'spark']);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /web\.r_/);
  assert.match(r.out, /500/);
  // dups keeps --prefix N (sketch values keying a page): a flag of its own, not plan's
  const d = await run(['dups', 'sample/docs.example.com', '--prefix', '8', '--quiet']);
  assert.is(d.code, 0, d.err);
});

test.run();
