// The package build: the WebAssembly (scripts/build-wasm.mjs) and then dist/ with rollup (the
// ESM, CommonJS and browser bundles and the .d.ts files), each only when stale. npm runs it as
// `prepare`: on `npm install` in a checkout, when it installs the package from git (after
// installing its devDependencies, which hold the compilers) and before `npm pack` / `npm publish`.
// It prints one line; the compilers' own output only when they fail, and their warnings.
//
//   node scripts/build.mjs [--browser] [--force]
//     --browser  only the browser bundles (what the browser tests load)
//     --force    rebuild even when up to date
//
// Staleness: rollup records each bundle's source files in build/inputs/<bundle>.json; an output
// older than one of them, than the configuration or than the WebAssembly is rebuilt. A lock
// directory keeps two builds in one tree (parallel test files) from running at once.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const BROWSER = {
  bundles: ['browser', 'browser-external', 'advanced-browser', 'advanced-browser-external', 'worker-browser'],
  outputs: ['browser.js', 'browser-external.js', 'advanced-browser.js', 'advanced-browser-external.js', 'worker-browser.js', 'resemble.wasm', 'resemble-scalar.wasm'],
};
const ALL = {
  bundles: [...BROWSER.bundles, 'node', 'types'],
  outputs: [...BROWSER.outputs, 'index.js', 'index.cjs', 'index.d.ts', 'node.js', 'node.cjs', 'node.d.ts', 'cli.js', 'browser.d.ts', 'browser-external.d.ts',
    'advanced.js', 'advanced.cjs', 'advanced.d.ts'],
};
/** Files every bundle depends on besides its sources. */
const CONFIG = ['rollup.config.mjs', 'scripts/public-types.mjs', 'package.json', 'tsconfig.json', 'build/resemble.wasm', 'build/resemble-scalar.wasm'];
// A build left by a crashed run must not block the next one forever.
const STALE_LOCK_MS = 180_000;

function mtime(path) {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
}

/** Takes 'browser' or 'all'; returns why those outputs must be rebuilt, or undefined when they are fresh. */
function staleness(which) {
  const want = which === 'browser' ? BROWSER : ALL;
  let oldest = Infinity;
  for (const o of want.outputs) {
    const t = statSync(join(root, 'dist', o), { throwIfNoEntry: false })?.mtimeMs;
    if (t === undefined) return `dist/${o} is missing`;
    oldest = Math.min(oldest, t);
  }
  const sources = [...CONFIG];
  for (const b of want.bundles) {
    const manifest = join(root, 'build', 'inputs', `${b}.json`);
    if (!existsSync(manifest)) return `build/inputs/${b}.json is missing`;
    sources.push(...JSON.parse(readFileSync(manifest, 'utf8')));
  }
  for (const s of sources) if (mtime(join(root, s)) > oldest) return `${s} is newer than dist/`;
  return undefined;
}

/** Runs a Node script of the build with its output captured; throws with that output when it fails. */
function run(what, args) {
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.status !== 0) throw new Error(`${what} failed${r.error ? ` (${r.error.message})` : ''}:\n${out}`);
  return out;
}

/** The warnings in a compiler's output, one line each (AssemblyScript's with the place it points at). */
function warnings(out) {
  const lines = out.split('\n');
  const found = [];
  lines.forEach((l, i) => {
    if (!/^\s*(\(!\)|WARNING\b)/.test(l)) return;
    const at = lines.slice(i + 1, i + 8).map((n) => /└─ in (\S+)/.exec(n)?.[1]).find(Boolean);
    found.push(at ? `${l.trim()} (${at})` : l.trim());
  });
  return found;
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Takes 'browser' or 'all' and { force }; builds what is stale and returns one line saying what
 * was done, plus the warnings the compilers printed. Throws with the compiler output on failure.
 */
function build(which = 'all', { force = false } = {}) {
  const started = Date.now();
  const wasm = run('build-wasm', [join(root, 'scripts', 'build-wasm.mjs'), ...(force ? ['--force'] : [])]);
  const notes = warnings(wasm);
  // build-wasm prints a `build-wasm: …` line only when it compiled something.
  const builtWasm = /^build-wasm:/m.test(wasm)
    ? readdirSync(join(root, 'build')).filter((f) => f.endsWith('.wasm')).map((f) => `${f} ${statSync(join(root, 'build', f)).size} bytes`).join(', ')
    : '';
  if (!force && staleness(which) === undefined) return { line: 'dist/ is up to date', warnings: notes };
  const lock = join(root, 'build', '.rollup-lock');
  mkdirSync(join(root, 'build'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - mtime(lock) > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else sleep(250);
    }
  }
  try {
    const why = force ? '--force' : staleness(which);
    if (why === undefined) return { line: 'dist/ was built by another run', warnings: notes };
    const args = [join(root, 'node_modules', 'rollup', 'dist', 'bin', 'rollup'), '-c'];
    if (which === 'browser') args.push('--configBrowser');
    notes.push(...warnings(run('rollup', args)));
    const what = [builtWasm ? `the WebAssembly (${builtWasm})` : '', which === 'browser' ? 'the browser bundles' : 'dist/ (ESM, CommonJS, browser, types)'].filter(Boolean).join(' and ');
    return { line: `built ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s because ${why}`, warnings: notes };
  } finally {
    rmdirSync(lock);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === realpathSync(process.argv[1])) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--browser' && a !== '--force');
  if (unknown.length) {
    console.error(`build: unknown argument ${unknown[0]} (use --browser, --force)`);
    process.exit(2);
  }
  if (!existsSync(join(root, 'node_modules', 'rollup')) || !existsSync(join(root, 'node_modules', 'assemblyscript'))) {
    console.error('web-resemble: the build needs the devDependencies (assemblyscript, rollup, typescript): run `npm install` first');
    process.exit(1);
  }
  try {
    const r = build(args.includes('--browser') ? 'browser' : 'all', { force: args.includes('--force') });
    for (const w of r.warnings) console.error(w);
    console.error(`web-resemble: ${r.line}`);
  } catch (e) {
    console.error(`web-resemble: ${e.message}`);
    process.exit(1);
  }
}
