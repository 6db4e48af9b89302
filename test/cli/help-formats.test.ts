// Every command's --help says which --format values it takes, and the command takes exactly those:
// each one listed passes the check main makes before any work, each one not listed is refused
// (exit 2, naming --format) before any work starts. And every flag a command takes is in its
// --help, and every flag its --help lists is one it takes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatOf, OUTPUT_FORMATS, READER_USAGE, SHARED_OPTIONS } from '../../src/cli/args.js';
import { commands } from '../../src/cli/commands/index.js';
import { main } from '../../src/cli/main.js';

async function run(argv: string[]) {
  let out = '', err = '';
  const code = await main(argv, { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c), isTTY: false } });
  return { code, out, err };
}

for (const name of Object.keys(commands)) {
  test(`${name} --help: its --format line lists what it takes`, async () => {
    const { command } = await commands[name]();
    const help = await run([name, '--help']);
    assert.is(help.code, 0, help.err);
    const line = /^ {2}-f, --format FORMAT +(.+) \(default: (.+)\)$/m.exec(help.out);
    assert.ok(line, `${name} --help has a --format line`);
    const listed = line![1].split(' | ');
    for (const f of listed) assert.ok((OUTPUT_FORMATS as readonly string[]).includes(f), `${name} lists ${f}`);
    // what the usage itself says of --format names listed formats only
    for (const m of command.usage.matchAll(/--format ([a-z]+(?:[|/ ]+[a-z]+)*)/g)) {
      for (const f of m[1].split(/[|/ ]+/).filter((w) => (OUTPUT_FORMATS as readonly string[]).includes(w))) assert.ok(listed.includes(f), `${name}'s usage names --format ${f}, which its --format line does not list`);
    }
    for (const f of OUTPUT_FORMATS) {
      if (listed.includes(f)) {
        assert.is(formatOf({ format: f }, command), f);
      } else {
        const r = await run([name, '--format', f, 'no-such-input']);
        assert.is(r.code, 2, `${name} --format ${f}: ${r.err}`);
        assert.match(r.err, '--format');
        assert.is(r.out, '');
      }
    }
    const bogus = await run([name, '--format', 'yaml', 'no-such-input']);
    assert.is(bogus.code, 2);
    assert.match(bogus.err, '--format');
  });
}

test('dedup takes jsonl only and says so; study takes csv and says so', async () => {
  assert.match((await run(['dedup', '--help'])).out, /--format FORMAT +jsonl \(default: jsonl/);
  assert.match((await run(['study', '--help'])).out, /--format FORMAT +jsonl \| json \| csv \(default: markdown tables\)/);
});

/** Flags of earlier versions a command still parses only to refuse them with what replaced them. */
const REFUSED: Record<string, string[]> = { collections: ['extended', 'single-site'] };
/** Flags a command takes that its --help does not list yet (asserted, so the list shrinks when they are). */
const UNLISTED: Record<string, string[]> = { index: ['master', 'spark-conf'] };

for (const name of Object.keys(commands)) {
  test(`${name} --help: lists every flag it takes, and takes every flag it lists`, async () => {
    const { command } = await commands[name]();
    const help = command.usage + '\n' + ('input-format' in command.options ? READER_USAGE : '');
    const listed = new Set([...help.matchAll(/^ {2}(?:-\w, )?--([a-z][a-z0-9-]*[a-zA-Z0-9])\b/gm)].map((m) => m[1]));
    const named = (flag: string) => listed.has(flag) || new RegExp(`--${flag}\\b`).test(help);
    const options = Object.keys(command.options);
    const missing = options.filter((o) => !named(o) && !(REFUSED[name] ?? []).includes(o));
    assert.equal(missing, UNLISTED[name] ?? [], `${name} takes flags its --help does not list`);
    for (const flag of listed) {
      if (flag.startsWith('no-') && options.includes(flag.slice(3))) continue;
      assert.ok(options.includes(flag) || flag in SHARED_OPTIONS, `${name} --help lists --${flag}, which it does not take`);
    }
    for (const flag of REFUSED[name] ?? []) {
      const r = await run([name, `--${flag}`, 'no-such-input']);
      assert.is(r.code, 2, r.err);
      assert.match(r.err, `--${flag}`);
    }
  });
}

test.run();
