// `npm test`: builds the WebAssembly if stale, runs every uvu suite under test/ with tsx and
// prints uvu's totals as a closing line `N passed, N failed` (uvu prints no failed count itself).
// Each test file runs in a process of its own, as many at once as the machine has cores (at most
// 4; `--jobs N` or RESEMBLE_TEST_JOBS=N to choose), and its line is printed in file order with its
// time. Exit code: non-zero when any test failed or a suite crashed. Other arguments filter test
// files (a substring of the path), e.g. `npm test -- rabin`.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-wasm.mjs')], { stdio: 'inherit', cwd: root });
if (build.status !== 0) process.exit(build.status ?? 1);

const args = process.argv.slice(2);
const at = args.indexOf('--jobs');
const jobsArg = at >= 0 ? args.splice(at, 2)[1] ?? '' : process.env.RESEMBLE_TEST_JOBS;
const jobs = jobsArg === undefined ? Math.min(4, availableParallelism()) : Number(jobsArg);
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error(`npm test: --jobs takes a whole number of at least 1, not ${JSON.stringify(jobsArg)}`);
  process.exit(2);
}
const filters = args;
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.test\.ts$/.test(name)) files.push(relative(root, p));
  }
})(join(root, 'test'));
const chosen = filters.length ? files.filter((f) => filters.some((s) => f.includes(s))) : files;

// Suites that need dist/ build it when it is stale (test/bundle/dist.ts); with several running at
// once it is built here first, so two of them never write it at the same time.
if (jobs > 1 && chosen.length > 1) {
  const dist = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit', cwd: root });
  if (dist.status !== 0) process.exit(dist.status ?? 1);
}

/** Runs one test file; resolves with its exit status, output and seconds. */
function runFile(file) {
  return new Promise((resolve) => {
    const t = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', file], { cwd: root, env: { ...process.env, FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('error', (e) => { out += `\n${e.message}`; });
    child.on('close', (status) => resolve({ status, out, seconds: (Date.now() - t) / 1000 }));
  });
}

let passed = 0, failed = 0, skipped = 0, crashed = 0;
const started = Date.now();
const results = new Array(chosen.length);
let printed = 0;
/** Prints the results that are next in file order. */
function report() {
  while (printed < chosen.length && results[printed]) {
    const file = chosen[printed], { status, out, seconds } = results[printed++];
    const total = /Total:\s+(\d+)/.exec(out), ok = /Passed:\s+(\d+)/.exec(out), sk = /Skipped:\s+(\d+)/.exec(out);
    const t = total ? +total[1] : 0, p = ok ? +ok[1] : 0;
    passed += p; failed += t - p; skipped += sk ? +sk[1] : 0;
    // a file that exits 0 with tests not passed failed too (uvu exits 0 when a `before` hook throws)
    const bad = status !== 0 || !total || p < t;
    if (bad && t - p === 0) { crashed++; failed++; }
    process.stdout.write(`${bad ? 'FAIL' : 'ok  '} ${file}  ${p}/${t}  ${seconds.toFixed(1)}s\n`);
    if (bad) process.stdout.write(out.split('\n').map((l) => '     ' + l).join('\n') + '\n');
  }
}
let next = 0;
async function lane() {
  while (next < chosen.length) {
    const k = next++;
    results[k] = await runFile(chosen[k]);
    report();
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, chosen.length) }, lane));
const secs = ((Date.now() - started) / 1000).toFixed(1);
console.log(`\n${chosen.length} test files in ${secs}s, ${Math.max(1, Math.min(jobs, chosen.length))} at a time${crashed ? `, ${crashed} crashed` : ''}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || chosen.length === 0 ? 1 : 0);
