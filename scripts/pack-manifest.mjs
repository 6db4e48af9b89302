// The package.json a tarball ships has no `prepare` script: npm runs `prepare` when it installs a
// package from git or a folder (to build dist/, which a checkout lacks), but a tarball holds dist/
// built, and npm, which never runs a tarball's `prepare`, still lists it among the install scripts
// a consumer has to review. `npm pack` and `npm publish` run `prepack` (the build, then
// `strip`: package.json without `prepare`, the file as it was kept in build/) before they read
// the manifest, and `postpack` (`restore`) after; a pack that died between the two is undone by the
// next `strip` or `restore`.
//
//   node scripts/pack-manifest.mjs strip | restore
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const kept = join(root, 'build', 'package.json.packing');

/** Puts back the package.json a strip kept, if any. */
function restore() {
  if (!existsSync(kept)) return;
  writeFileSync(manifest, readFileSync(kept));
  rmSync(kept);
}

const mode = process.argv[2];
if (mode === 'restore') restore();
else if (mode === 'strip') {
  restore();
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  if (pkg.scripts?.prepare !== undefined) {
    mkdirSync(dirname(kept), { recursive: true });
    writeFileSync(kept, text);
    delete pkg.scripts.prepare;
    writeFileSync(manifest, JSON.stringify(pkg, null, 2) + '\n');
  }
} else {
  console.error('pack-manifest: use strip or restore');
  process.exit(2);
}
