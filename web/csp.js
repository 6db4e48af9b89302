// The strict-CSP check: web-resemble/advanced/browser-external fetches resemble.wasm (no inline base64), then
// the same documents are sketched on the main thread and in a Web Worker pool.
import * as resemble from '/dist/advanced-browser-external.js';
import { exampleDocuments } from './example.js';

const status = document.getElementById('status');

async function main() {
  await resemble.init();
  const docs = exampleDocuments().map((d) => d.text);
  const here = resemble.serializeSketchSet(resemble.sketchMany(docs));
  const pool = resemble.createPool({ workers: 2 });
  let there;
  try {
    there = resemble.serializeSketchSet(await pool.sketchMany(docs));
  } finally {
    await pool.close();
  }
  const same = here.length === there.length && here.every((b, i) => b === there[i]);
  document.getElementById('result').textContent = `${docs.length} documents, ${here.length} sketch bytes; main thread and Web Worker ${same ? 'agree' : 'DIFFER'}`;
  status.textContent = same ? 'ok' : 'main thread and worker sketches differ';
  status.dataset.state = same ? 'done' : 'error';
  return { main: Array.from(here), worker: Array.from(there) };
}

window.resembleCsp = main().catch((e) => {
  status.textContent = `failed: ${e.message}`;
  status.dataset.state = 'error';
  throw e;
});
