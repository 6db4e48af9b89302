import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const bin = fileURLToPath(new URL('../../bin/resemble.js', import.meta.url));
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));

function resemble(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
}

test('bin/resemble.js runs main and exits with its code', () => {
  const v = resemble('--version');
  assert.is(v.status, 0, v.stderr);
  assert.is(v.stdout.trim(), pkg.version);
  const bad = resemble('no-such-command');
  assert.is(bad.status, 2);
  assert.match(bad.stderr, 'unknown command "no-such-command"');
  assert.is(bad.stdout, '');
});

test.run();
