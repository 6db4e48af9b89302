// The API reference (`npm run docs`, TypeDoc into docs/api/) is generated from the TSDoc of every
// package entry, with warnings as errors: an export without its one-line comment, a type an export
// names that the reference would leave out, or a {@link} to a name it does not hold fails here.
// Nothing is written (`--emit none`); the TypeScript errors are tsc's job (`skipErrorChecking`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { root } from '../bundle/dist.js';

const config = JSON.parse(readFileSync(join(root, 'typedoc.json'), 'utf8')) as { entryPoints: string[]; out: string; treatWarningsAsErrors: boolean; validation: Record<string, boolean> };
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, string | Record<string, string>>; scripts: Record<string, string> };

test('every entry of the package with types is an entry point of the reference', () => {
  const typed = [...new Set(Object.values(pkg.exports).flatMap((t) => (typeof t === 'string' ? [] : t.types ? [basename(t.types, '.d.ts')] : [])))];
  assert.ok(typed.length >= 5, typed.join(' '));
  for (const name of typed) {
    assert.ok(config.entryPoints.some((e) => e === `src/${name}.ts` || e === `src/${name}/index.ts`), `web-resemble entry ${name} (dist/${name}.d.ts) is in typedoc.json's entryPoints`);
  }
  for (const e of config.entryPoints) assert.ok(existsSync(join(root, e)), e);
  assert.is(config.entryPoints.length, typed.length, 'no entry point the package does not export');
});

test('warnings are errors, every check is on, and `npm run docs` writes to docs/api/ (ignored by git)', () => {
  assert.ok(config.treatWarningsAsErrors);
  assert.equal(config.validation, { notExported: true, invalidLink: true, notDocumented: true });
  assert.is(config.out, 'docs/api');
  assert.match(pkg.scripts.docs, /^typedoc\b/);
  assert.ok(readFileSync(join(root, '.gitignore'), 'utf8').split('\n').includes('docs/api/'));
});

test('TypeDoc documents every export with no warning', () => {
  const r = spawnSync(process.execPath, [join(root, 'node_modules/typedoc/bin/typedoc'), '--emit', 'none'], { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } });
  const out = `${r.stdout}${r.stderr}`;
  assert.is(r.status, 0, out);
  assert.not.match(out, /\[warning\]|\[error\]/, out);
});

test.run();
