import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { command } from '../../src/cli/commands/plan.js';
import { parseCommandArgs } from '../../src/cli/args.js';
import { renderPlan, planScript } from '../../src/scale/plan.js';
import { ResembleError } from '../../src/errors.js';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '', err = '';
  const { values, positionals } = parseCommandArgs(command, args);
  const code = await command.run({ values, positionals, out: { write: (s) => { out += s; } }, err: { write: (s) => { err += s; } }, progress: false, quiet: false });
  return { code, out, err };
}

test('resemble plan prints the script renderPlan gives for the same settings', async () => {
  const r = await run(['--dialect', 'spark', '--keys', 's3://crawl/keys/', '--sizes', 's3://crawl/sizes/', '--common-cap', '500', '--threshold', '0.6', '--stage', 'pairs', '--stage', 'collections', '--extended']);
  assert.is(r.code, 0);
  const expected = planScript(renderPlan({ dialect: 'spark', keys: 's3://crawl/keys/', sizes: 's3://crawl/sizes/', commonCap: 500, threshold: 0.6, stages: ['pairs', 'collections'], extended: true }), 'spark');
  assert.is(r.out, expected);
  assert.match(r.out, 'WHERE c.n <= 500');
  assert.match(r.out, '(t.s = t.d OR (1 = 1 AND t.s >= t.d))');
  assert.not.match(r.out, 'components-round');
  assert.match(r.err, /statements for spark/);
});

test('--format jsonl gives one record per statement; bad flags are E_OPTION', async () => {
  const r = await run(['--dialect', 'bigquery', '--table-prefix', 'web.r_', '--keys', 'web.keys', '--kind', 'mod', '--format', 'jsonl']);
  const records = r.out.trim().split('\n').map((l) => JSON.parse(l));
  const plan = renderPlan({ dialect: 'bigquery', prefix: 'web.r_', keys: 'web.keys', kind: 'mod' });
  assert.is(records.length, plan.length);
  assert.equal(records.map((x) => x.template), plan.map((p) => p.template));
  assert.ok(records.every((x) => typeof x.sql === 'string' && x.version >= 1));
  assert.ok(records.some((x) => /FLOAT64/.test(x.sql)));
  for (const args of [['--dialect', 'oracle'], ['--stage', 'all'], ['--threshold', '2'], ['--dialect', 'trino', '--keys', 's3://b/k/'], ['extra']]) {
    try { await run(args); assert.unreachable(args.join(' ')); } catch (e) {
      assert.instance(e, ResembleError);
      assert.is((e as ResembleError).code, 'E_OPTION', args.join(' '));
    }
  }
});

test.run();
