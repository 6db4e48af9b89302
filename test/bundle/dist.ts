// Shared by the bundle and browser tests: makes sure dist/ is built from the current sources,
// running rollup only when an output is missing or older than a file it was built from (rollup
// records each bundle's source files in build/inputs/<bundle>.json). A lock directory keeps two
// test runs in the same tree from building at once.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dist = (name: string) => join(root, 'dist', name);

const BROWSER = { bundles: ['browser', 'browser-external', 'worker-browser'], outputs: ['browser.js', 'browser-external.js', 'worker-browser.js', 'resemble.wasm', 'resemble-scalar.wasm'] };
const ALL = {
  bundles: [...BROWSER.bundles, 'node'],
  outputs: [...BROWSER.outputs, 'index.js', 'index.cjs', 'index.d.ts', 'node.js', 'node.cjs', 'node.d.ts', 'browser.d.ts', 'browser-external.d.ts'],
};
// A build left by a crashed run must not block the next one forever.
const STALE_LOCK_MS = 180_000;

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}

/** Takes which outputs are needed; returns why they must be rebuilt, or undefined when they are fresh. */
export function staleness(which: 'browser' | 'all'): string | undefined {
  const want = which === 'browser' ? BROWSER : ALL;
  let oldest = Infinity;
  for (const o of want.outputs) {
    const t = statSync(dist(o), { throwIfNoEntry: false })?.mtimeMs;
    if (t === undefined) return `dist/${o} is missing`;
    oldest = Math.min(oldest, t);
  }
  const sources = ['rollup.config.mjs', 'build/resemble.wasm', 'build/resemble-scalar.wasm'];
  for (const b of want.bundles) {
    const manifest = join(root, 'build', 'inputs', `${b}.json`);
    if (!existsSync(manifest)) return `build/inputs/${b}.json is missing`;
    sources.push(...(JSON.parse(readFileSync(manifest, 'utf8')) as string[]));
  }
  for (const s of sources) {
    if (mtime(join(root, s)) > oldest) return `${s} is newer than dist/`;
  }
  return undefined;
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Builds the WebAssembly (if stale) and then dist/ (if stale); returns what was done, for the test log. */
export function ensureDist(which: 'browser' | 'all'): string {
  const wasm = spawnSync(process.execPath, [join(root, 'scripts', 'build-wasm.mjs')], { cwd: root, encoding: 'utf8' });
  if (wasm.status !== 0) throw new Error(`build-wasm failed:\n${wasm.stderr}`);
  if (staleness(which) === undefined) return 'dist/ is up to date';
  const lock = join(root, 'build', '.rollup-lock');
  mkdirSync(join(root, 'build'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - mtime(lock) > STALE_LOCK_MS) rmdirSync(lock);
      else sleep(250);
    }
  }
  try {
    const why = staleness(which);
    if (why === undefined) return 'dist/ was built by another run';
    const started = Date.now();
    const args = [join(root, 'node_modules', 'rollup', 'dist', 'bin', 'rollup'), '-c', '--silent'];
    if (which === 'browser') args.push('--configBrowser');
    const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`rollup -c failed:\n${r.stderr}`);
    return `built dist/ (${which}) in ${((Date.now() - started) / 1000).toFixed(1)} s because ${why}`;
  } finally {
    rmdirSync(lock);
  }
}
