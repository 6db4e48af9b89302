// The README's index and datasketch examples run as written (against the sources) and print what
// the README says they print.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'resemble-readme-'));

/** Runs the ```ts block after `<!-- readme-example: name -->` with 'web-resemble' pointing at the sources. */
function run(name: string): string {
  const m = new RegExp(`<!-- readme-example: ${name} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\``).exec(readme);
  assert.ok(m, `README example ${name}`);
  const code = m![1].replace(/from 'web-resemble'/g, `from '${pathToFileURL(join(root, 'src/node.ts')).href}'`);
  const file = join(dir, `${name}.mts`);
  writeFileSync(file, code);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  return r.stdout;
}

test('the index example finds the near-duplicate and resumes from the saved bytes', () => {
  const out = run('index').trim().split('\n');
  assert.match(out[0], /^http:\/\/b\.example\/x duplicates http:\/\/a\.example\/x \(0\.\d\d\)$/);
  assert.is(out[1], 'true');
});

test('the datasketch example estimates about 4/7 and finds the set', () => {
  const out = run('items').trim().split('\n');
  assert.ok(Math.abs(Number(out[0]) - 4 / 7) < 0.2, out[0]);
  assert.is(out[1], "[ 'a' ]");
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
