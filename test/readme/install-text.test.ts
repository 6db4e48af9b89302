// Until the package is on the npm registry, `npm install web-resemble` and `npx web-resemble`
// answer E404: the README, `resemble --help` and the demo page say so and give the installs that
// work (git, or a tarball from `npm pack`), keeping the registry line for when it is published.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.js';
import { readme, root } from './examples.js';

/** Takes a text; asserts it states the registry's answer and the two installs that work. */
function saysHowToInstall(where: string, text: string): void {
  const flat = text.replace(/<\/?(code|p|strong|em)\b[^>]*>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/\s+/g, ' ');
  assert.match(flat, /not on the npm registry yet/i, `${where}: says the package is not published`);
  assert.match(flat, /E404/, `${where}: names the registry's answer`);
  assert.match(flat, /npm install <git URL/, `${where}: gives the git install`);
  assert.match(flat, /npm pack/, `${where}: gives the tarball install`);
  assert.match(flat, /npm install \.\/web-resemble-[^ ]*\.tgz/, `${where}: installs the tarball`);
  assert.match(flat, /once (it is )?published,? `?npm install web-resemble/i, `${where}: keeps the registry line`);
}

test('the README says how to install it today', () => {
  const install = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Quick start'));
  saysHowToInstall('README', install);
});

test('resemble --help says so', async () => {
  let out = '';
  const code = await main(['--help'], { stdout: { write: (s: string) => { out += s; return true; } }, stderr: { write: () => true } });
  assert.is(code, 0);
  saysHowToInstall('--help', out);
});

test('the demo page says so', () => {
  saysHowToInstall('web/index.html', readFileSync(join(root, 'web/index.html'), 'utf8'));
});

test.run();
