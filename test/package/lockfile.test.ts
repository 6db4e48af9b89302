// The lockfile is what `npm ci` (and .ci/run) installs, so it must be in step with package.json
// and complete: every optional dependency of every locked package (the native builds for each
// platform of rollup, esbuild, DuckDB) has an entry, or `npm ci` refuses it on every machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { root } from '../bundle/dist.js';

type Deps = Record<string, string>;
interface Locked { version?: string; dependencies?: Deps; devDependencies?: Deps; optionalDependencies?: Deps; peerDependencies?: Deps; peerDependenciesMeta?: Record<string, { optional?: boolean }> }
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Locked;
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { lockfileVersion: number; packages: Record<string, Locked> };

/** The lockfile entry Node's resolution would find for `name` required from the package at `from`. */
function resolve(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
    const at = `${dir ? dir + '/' : ''}node_modules/${name}`;
    if (lock.packages[at]) return at;
    if (!dir) return undefined;
  }
}

test('the lockfile records the dependencies package.json declares', () => {
  assert.ok(lock.lockfileVersion >= 3, 'lockfile v3');
  const top = lock.packages[''];
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const) {
    assert.equal(top[field] ?? {}, pkg[field] ?? {}, `${field} as in package.json`);
  }
});

test('every optional dependency of every locked package has an entry (npm ci needs them all, for every platform)', () => {
  const missing: string[] = [];
  for (const [path, p] of Object.entries(lock.packages)) {
    for (const name of Object.keys(p.optionalDependencies ?? {})) if (!resolve(path, name)) missing.push(`${path || 'package.json'} → ${name}`);
  }
  assert.equal(missing, [], 'pick versions whose optional builds the registry serves for every platform');
});

test('every required dependency of every locked package has an entry', () => {
  const missing: string[] = [];
  for (const [path, p] of Object.entries(lock.packages)) {
    if (path !== '' && !path.includes('node_modules/')) continue; // a linked workspace, none here
    const peersOptional = new Set(Object.entries(p.peerDependenciesMeta ?? {}).filter(([, m]) => m.optional).map(([n]) => n));
    const required = [...Object.keys(p.dependencies ?? {}), ...(path === '' ? Object.keys(p.devDependencies ?? {}) : []), ...Object.keys(p.peerDependencies ?? {}).filter((n) => !peersOptional.has(n))];
    for (const name of required) if (!resolve(path, name)) missing.push(`${path || 'package.json'} → ${name}`);
  }
  assert.equal(missing, []);
});

test.run();
