// The manual's reference tables (docs/library.md) against the entries: the root's table against
// src/node.ts and the table of what `web-resemble/advanced` adds against src/advanced.ts. Every value
// an entry exports has a row (advanced: every value the root does not have), and every name in a
// table is exported by its entry (values, or types for the rows of types). When the public surface
// changes, this says which rows to add or drop.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { root } from './examples.js';

const library = readFileSync(join(root, 'docs/library.md'), 'utf8');

/** The names in the first column of the table between an entry's markers, in order. */
function tableNames(text: string, marker: string): string[] {
  const start = text.indexOf(`<!-- ${marker}: start -->`), end = text.indexOf(`<!-- ${marker}: end -->`);
  assert.ok(start >= 0 && end > start, `docs/library.md has the reference table between <!-- ${marker}: start --> and <!-- ${marker}: end -->`);
  const names: string[] = [];
  for (const row of text.slice(start, end).split('\n').filter((l) => l.startsWith('| '))) {
    const cells = row.split(' | ');
    names.push(...[...(cells[1] ?? '').matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]));
  }
  return names;
}

/** The names an entry exports, values and types, read with the TypeScript checker (export lists only). */
function declaredNames(entry: string): Set<string> {
  const file = join(root, entry);
  const program = ts.createProgram([file], { noEmit: true, noLib: true, types: [], skipLibCheck: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler });
  const checker = program.getTypeChecker();
  return new Set(checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!).map((s) => s.name));
}

const rootNames = tableNames(library, 'root-exports');
const advancedNames = tableNames(library, 'advanced-exports');
const rootValues = Object.keys(await import('../../src/node.js')).sort();
const advancedValues = Object.keys(await import('../../src/advanced.js')).sort();

test('each table lists each name once, and no root value is in both', () => {
  assert.ok(rootNames.length > 20, `${rootNames.length} names`);
  assert.ok(advancedNames.length > 100, `${advancedNames.length} names`);
  for (const names of [rootNames, advancedNames]) assert.equal(names.filter((n, i) => names.indexOf(n) !== i), []);
  // SketchSet is a type on the root and its class in advanced: only a root value must not be listed twice.
  assert.equal(rootNames.filter((n) => advancedNames.includes(n) && rootValues.includes(n)), [], 'root values in both tables: a value belongs to one entry');
});

test('every value the root entry exports is in its table', () => {
  assert.equal(rootValues.filter((n) => !rootNames.includes(n)), [], 'root exports missing from the root table of docs/library.md (add a row, or stop exporting them)');
});

test('every value web-resemble/advanced adds is in its table', () => {
  const added = advancedValues.filter((n) => !rootValues.includes(n));
  assert.ok(added.length > 100, `${added.length} values`);
  assert.equal(added.filter((n) => !advancedNames.includes(n)), [], 'advanced exports missing from the advanced table of docs/library.md');
});

test('every name in a table is exported by its entry', () => {
  const declaredRoot = declaredNames('src/node.ts'), declaredAdvanced = declaredNames('src/advanced.ts');
  assert.ok(declaredRoot.has('sketch') && declaredRoot.has('Document'), 'the export list is read, types included');
  assert.equal(rootNames.filter((n) => !declaredRoot.has(n)), [], 'names in the root table that the root entry does not export (drop the row, or export them)');
  assert.equal(advancedNames.filter((n) => !declaredAdvanced.has(n)), [], 'names in the advanced table that web-resemble/advanced does not export');
  // Values of the advanced table are not root values (types may be reachable from both).
  assert.equal(advancedNames.filter((n) => rootValues.includes(n)), [], 'root values listed among what advanced adds');
});

test.run();
