// Makes every type an entry's declarations reach nameable from that entry. rollup-plugin-dts puts
// declarations shared by several entries into dist/chunks/*.d.ts, which the package's "exports"
// map does not expose. A consumer whose own declarations mention such a type (say the return type
// of `index.columns()`) gets TS2742 "cannot be named without a reference to
// './node_modules/…/dist/chunks/…'" unless the entry it imported also exports that type. This
// walks each entry's exports through the bundled declarations (parameter, return, property,
// heritage and `typeof` references, transitively) and adds a type-only export for every type
// declared in the bundle that is reachable but not exported. Two different types reachable under
// one name fail the build: export one under another name from the entry's sources.
import { dirname, join, relative } from 'node:path';
import typescript from 'typescript';

const ts = typescript;

/** The public name of a declaration: rollup suffixes names it had to deconflict with `$N`. */
const publicName = (local) => local.replace(/\$\d+$/, '');

/**
 * Takes the bundled declaration files (file name relative to `dir` → code) and the entry file
 * names; returns the code to append to each file, and errors (name collisions) to report.
 */
export function reachableTypeExports(dir, files, entries) {
  const abs = (f) => join(dir, f);
  const mem = new Map(Object.entries(files).map(([f, code]) => [abs(f), code]));
  const options = {
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: ['node'], skipLibCheck: true, noEmit: true, strict: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, lang, ...rest) => (mem.has(name) ? ts.createSourceFile(name, mem.get(name), lang, true) : getSourceFile.call(host, name, lang, ...rest));
  host.fileExists = (name) => mem.has(name) || fileExists.call(host, name);
  host.readFile = (name) => mem.get(name) ?? readFile.call(host, name);
  const program = ts.createProgram(entries.map(abs), options, host);
  const checker = program.getTypeChecker();
  const ours = (decl) => mem.has(decl.getSourceFile().fileName);
  const target = (s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  const moduleExports = (fileName) => checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(fileName)));

  const append = {};
  const errors = [];
  const addTo = (file, line) => { append[file] = (append[file] ?? '') + line + '\n'; };
  const chunkNames = new Map(); // chunk file → (symbol → exported name), names added here included
  for (const entry of entries) {
    const exported = new Map(); // symbol → name it is exported under
    const names = new Map(); // exported name → symbol
    for (const e of moduleExports(abs(entry))) {
      const t = target(e);
      if (!exported.has(t)) exported.set(t, e.name);
      names.set(e.name, t);
    }
    // Every symbol declared in the bundle that the entry's exports reach through type positions.
    const reached = new Set();
    const queue = [...exported.keys()];
    const consider = (node) => {
      while (ts.isQualifiedName(node)) node = node.left;
      while (ts.isPropertyAccessExpression(node)) node = node.expression;
      const s = checker.getSymbolAtLocation(node);
      if (!s) return;
      const t = target(s);
      if (t.flags & ts.SymbolFlags.TypeParameter || reached.has(t) || !(t.declarations ?? []).some(ours)) return;
      reached.add(t);
      queue.push(t);
    };
    const walk = (node) => {
      if (ts.isTypeReferenceNode(node)) consider(node.typeName);
      else if (ts.isExpressionWithTypeArguments(node)) consider(node.expression);
      else if (ts.isTypeQueryNode(node)) consider(node.exprName);
      ts.forEachChild(node, walk);
    };
    while (queue.length) {
      for (const decl of queue.pop().declarations ?? []) if (ours(decl)) walk(decl);
    }
    const added = new Map(); // public name → symbol, for this entry
    for (const s of reached) {
      if (exported.has(s)) continue;
      const name = publicName(s.name);
      const taken = names.get(name) ?? added.get(name);
      if (taken && taken !== s) {
        errors.push(`${entry}: two types are reachable under the name ${name}; export the one declared as ${s.name} under another name from the entry's sources`);
        continue;
      }
      added.set(name, s);
      const decl = s.declarations.find(ours);
      const home = relative(dir, decl.getSourceFile().fileName);
      if (home === entry) {
        addTo(entry, `export type { ${s.name} as ${name} };`);
        continue;
      }
      // Declared in a chunk: re-export it from there, exporting it from the chunk first if needed.
      let byChunk = chunkNames.get(home);
      if (!byChunk) {
        byChunk = new Map(moduleExports(abs(home)).map((e) => [target(e), e.name]));
        chunkNames.set(home, byChunk);
      }
      let as = byChunk.get(s);
      if (as === undefined) {
        const used = new Set(byChunk.values());
        as = s.name;
        for (let i = 1; used.has(as); i++) as = `${s.name}_${i}`;
        byChunk.set(s, as);
        addTo(home, `export type { ${s.name} as ${as} };`);
      }
      let spec = relative(dirname(entry), home).replace(/\.d\.ts$/, '.js');
      if (!spec.startsWith('.')) spec = './' + spec;
      addTo(entry, `export type { ${as} as ${name} } from '${spec}';`);
    }
  }
  return { append, errors };
}

/** The rollup plugin: runs on the declaration bundle, before rollup-plugin-dts checks its entries. */
export function publicTypes(dir) {
  return {
    name: 'resemble-public-types',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const files = Object.fromEntries(chunks.map((c) => [c.fileName, c.code]));
      const entries = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
      const { append, errors } = reachableTypeExports(dir, files, entries);
      if (errors.length) this.error(errors.join('\n'));
      for (const [file, code] of Object.entries(append)) bundle[file].code += code;
    },
  };
}
