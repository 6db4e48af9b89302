// The built declarations from a consumer's side: a project that imports the package by name and
// emits its own declarations (`tsc --strict --module nodenext --declaration`, library checking
// on) must be able to name every type the package's exports reach, without a path into
// dist/chunks/ (TS2742), and must compile without the optional DuckDB package installed.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { emitConsumerDeclarations, probeFiles } from '../package/consumer.js';
import { ensureDist, root } from './dist.js';

console.log(ensureDist('all'));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string>; peerDependencies: Record<string, string> };


/** The packages an install of ours brings (the lockfile's non-development top-level entries), as npm hoists them. */
function productionPackages(): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean }> };
  const names = Object.entries(lock.packages).filter(([path, p]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) && !p.dev && !p.devOptional).map(([path]) => path.slice('node_modules/'.length));
  for (const dep of Object.keys(pkg.dependencies)) assert.ok(names.includes(dep), `the lockfile holds ${dep}`);
  return names;
}

test('the probes cover every typed entry and reach into functions, classes and statics', () => {
  const probes = probeFiles(root);
  assert.equal(Object.keys(probes).sort(), ['probe-web_resemble.ts', 'probe-web_resemble_advanced.ts', 'probe-web_resemble_advanced_browser_external.ts', 'probe-web_resemble_browser.ts', 'probe-web_resemble_browser_external.ts', 'probe-web_resemble_core.ts', 'probe-web_resemble_crawlee.ts']);
  const node = probes['probe-web_resemble.ts'];
  for (const probe of ['findNearDuplicates_call', 'findNearDuplicates_arg0', 'ResembleIndex_insertMany', 'ResembleIndex_static_load', 'SketchSet_size', 'createPool_call', 'ERROR_CODES_value']) {
    assert.ok(node.includes(`export const ${probe} =`), `probe ${probe}`);
  }
  const advanced = probes['probe-web_resemble_advanced.ts'];
  for (const probe of ['nearDuplicates_call', 'nearDuplicates_arg0', 'SketchSet_new', 'CONTRACT_value', 'findNearDuplicates_call']) {
    assert.ok(advanced.includes(`export const ${probe} =`), `probe ${probe}`);
  }
});

test('a consumer without DuckDB emits declarations against the built package, naming no private chunk', () => {
  // The package as npm installs it: what it ships, its dependencies hoisted beside it (copied from
  // this checkout), @types/node, and not the optional peer @duckdb/node-api.
  const dir = mkdtempSync(join(tmpdir(), 'resemble-consumer-'));
  try {
    const installed = join(dir, 'node_modules', pkg.name);
    mkdirSync(installed, { recursive: true });
    cpSync(join(root, 'package.json'), join(installed, 'package.json'));
    cpSync(join(root, 'dist'), join(installed, 'dist'), { recursive: true });
    // Copies, not links: TypeScript follows a link to its real path, outside this project.
    for (const dep of new Set([...productionPackages(), '@types/node'])) cpSync(join(root, 'node_modules', dep), join(dir, 'node_modules', dep), { recursive: true });
    assert.ok(Object.keys(pkg.peerDependencies).includes('@duckdb/node-api'), 'DuckDB is a peer dependency');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    assert.is(emitConsumerDeclarations(dir, installed, tsc), '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
