// Shared by the bundle, browser and package tests: makes sure dist/ is built from the current
// sources with the package build (scripts/build.mjs), which only rebuilds what is stale.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const dist = (name: string) => join(root, 'dist', name);

/** Takes which outputs are needed; builds them if stale and returns what was done, for the test log. */
export function ensureDist(which: 'browser' | 'all'): string {
  const args = [join(root, 'scripts', 'build.mjs'), ...(which === 'browser' ? ['--browser'] : [])];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`the build failed:\n${r.stderr}`);
  return r.stderr.trim();
}
