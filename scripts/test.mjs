// `npm test`: builds the WebAssembly if stale, runs every uvu suite under test/ with tsx, and
// prints uvu's totals as a closing line `N passed, N failed` (uvu prints no failed count itself).
// Exit code: non-zero when any test failed or a suite crashed. Extra arguments filter test files
// (a substring of the path), e.g. `npm test -- rabin`.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-wasm.mjs')], { stdio: 'inherit', cwd: root });
if (build.status !== 0) process.exit(build.status ?? 1);

const filters = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.test\.ts$/.test(name)) files.push(relative(root, p));
  }
})(join(root, 'test'));
const chosen = filters.length ? files.filter((f) => filters.some((s) => f.includes(s))) : files;

let passed = 0, failed = 0, skipped = 0, crashed = 0;
const started = Date.now();
for (const file of chosen) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  const out = (r.stdout ?? '') + (r.stderr ?? '');
  const total = /Total:\s+(\d+)/.exec(out), ok = /Passed:\s+(\d+)/.exec(out), sk = /Skipped:\s+(\d+)/.exec(out);
  const t = total ? +total[1] : 0, p = ok ? +ok[1] : 0;
  passed += p; failed += t - p; skipped += sk ? +sk[1] : 0;
  const bad = r.status !== 0 || !total;
  if (bad && t - p === 0) { crashed++; failed++; }
  process.stdout.write(`${bad ? 'FAIL' : 'ok  '} ${file}  ${p}/${t}\n`);
  if (bad) process.stdout.write(out.split('\n').map((l) => '     ' + l).join('\n') + '\n');
}
const secs = ((Date.now() - started) / 1000).toFixed(1);
console.log(`\n${chosen.length} test files in ${secs}s${crashed ? `, ${crashed} crashed` : ''}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || chosen.length === 0 ? 1 : 0);
