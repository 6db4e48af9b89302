import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Returns the package version. package.json is found by walking up from this module, which sits at
 * a different depth in a checkout (src/cli/) and in the built package (dist/).
 */
export function version(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'web-resemble' && pkg.version) return pkg.version;
    } catch {
      // not here: keep walking up
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
