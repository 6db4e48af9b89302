// The manual's reference table of the root exports (docs/library.md) against src/node.ts: every value the root
// entry exports has a row, and every name in the table is exported (values, or types for the rows
// of types). When the public surface changes, this says which rows to add or drop.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { root } from './examples.js';

const library = readFileSync(join(root, 'docs/library.md'), 'utf8');

/** The names in the first column of the table between the root-exports markers, in order. */
function tableNames(text: string): string[] {
  const start = text.indexOf('<!-- root-exports: start -->'), end = text.indexOf('<!-- root-exports: end -->');
  assert.ok(start >= 0 && end > start, 'docs/library.md has the reference table between <!-- root-exports: start --> and <!-- root-exports: end -->');
  const names: string[] = [];
  for (const row of text.slice(start, end).split('\n').filter((l) => l.startsWith('| '))) {
    const cells = row.split(' | ');
    names.push(...[...(cells[1] ?? '').matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]));
  }
  return names;
}

/** The names src/node.ts exports, values and types, read with the TypeScript checker (export lists only). */
function declaredNames(): Set<string> {
  const file = join(root, 'src/node.ts');
  const program = ts.createProgram([file], { noEmit: true, noLib: true, types: [], skipLibCheck: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler });
  const checker = program.getTypeChecker();
  return new Set(checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!).map((s) => s.name));
}

const names = tableNames(library);

test('the table lists each name once', () => {
  assert.ok(names.length > 50, `${names.length} names`);
  assert.equal(names.filter((n, i) => names.indexOf(n) !== i), []);
});

test('every value the root entry exports is in the table', async () => {
  const values = Object.keys(await import('../../src/node.js')).sort();
  assert.equal(values.filter((n) => !names.includes(n)), [], 'root exports missing from the table of docs/library.md (add a row, or stop exporting them)');
});

test('every name in the table is exported by the root entry', () => {
  const declared = declaredNames();
  assert.ok(declared.has('sketch') && declared.has('Document'), 'the export list is read, types included');
  assert.equal(names.filter((n) => !declared.has(n)), [], 'names in the table of docs/library.md that the root entry does not export (drop the row, or export them)');
});

test.run();
