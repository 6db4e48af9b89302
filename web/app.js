// The demo page: documents in (dropped, chosen, pasted or imported sketches), sketches computed by
// resemble's Web Worker pool with a progress bar, then the pairwise heat map, the near-duplicate
// clusters with evidence, export/import in the Node binary format, and a throughput benchmark.
import * as resemble from '/dist/advanced-browser.js';
import { benchCorpus, runBench } from './bench.js';
import { clusterRecords, renderClusters } from './clusters.js';
import { exampleDocuments } from './example.js';
import { droppedFiles, pastedDocuments, readFiles } from './files.js';
import { drawMatrix, drawScale, MAX_DOCS, pairMatrix } from './heatmap.js';

const $ = (id) => document.getElementById(id);
const state = {
  /** { name, bytes, charset } in DocId order; empty for an imported sketch file. */
  docs: [],
  /** { name, message }: files that could not be used. */
  errors: [],
  /** { name, message }: documents the last sketch run rejected. */
  sketchErrors: [],
  /** What the last sketch run or import did, for the summary line. */
  summary: '',
  names: [],
  set: null,
  nearDuplicates: null,
  records: [],
  matrix: null,
  cell: 0,
  sketchMs: 0,
};
let pool;
let generation = 0;

function setStatus(text, phase) {
  const el = $('status');
  el.textContent = text;
  el.dataset.state = phase;
  // Counts finished actions, so a script can wait for the one it started.
  if (phase === 'done' || phase === 'error') el.dataset.runs = String(Number(el.dataset.runs ?? 0) + 1);
}

function workersWanted() {
  const v = Number($('workers').value);
  return Number.isInteger(v) && v >= 1 ? v : undefined;
}

function replacePool() {
  const old = pool;
  pool = resemble.createPool({ workers: workersWanted() });
  old?.close();
}

/** The sketch options from the form; validated by the library (a coded error says what is wrong). */
function sketchOptions() {
  const kind = $('kind').value;
  const o = { w: Number($('w').value), kind, markup: $('markup').value };
  if (kind === 'min') o.s = Number($('s').value);
  if (kind === 'mod') o.m = Number($('m').value);
  resemble.resolveSketchOptions(o);
  return o;
}

function threshold() {
  const t = Number($('threshold').value);
  if (!(t > 0 && t <= 1)) throw new resemble.ResembleError('E_OPTION', `expected a resemblance threshold in (0, 1], got ${$('threshold').value}`);
  return t;
}

function showErrors() {
  const ul = $('errors');
  ul.replaceChildren(...[...state.errors, ...state.sketchErrors].map((e) => {
    const li = document.createElement('li');
    li.textContent = `${e.name}: ${e.message}`;
    return li;
  }));
}

function size(bytes) {
  return bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} KB` : `${(bytes / 1e6).toFixed(2)} MB`;
}

function message(e) {
  return e instanceof resemble.ResembleError ? `${e.message} [${e.code}]` : e?.message ?? String(e);
}

/** Adds documents and errors, then sketches everything again. */
async function addDocuments(docs, errors) {
  if (state.set && state.docs.length === 0 && state.names.length > 0) {
    // An imported sketch file has no bytes to sketch again: start over with the new documents.
    state.names = [];
    state.set = null;
  }
  state.docs.push(...docs);
  state.errors.push(...errors);
  showErrors();
  await sketchAll();
}

async function sketchAll() {
  const mine = ++generation;
  if (state.docs.length === 0) {
    clearResults();
    setStatus(state.errors.length ? `no usable documents (${state.errors.length} skipped)` : 'ready: add documents', 'done');
    return;
  }
  let options;
  try {
    options = sketchOptions();
  } catch (e) {
    setStatus(message(e), 'error');
    return;
  }
  const bar = $('progress');
  bar.hidden = false;
  bar.max = state.docs.length;
  bar.value = 0;
  setStatus(`sketching ${state.docs.length} documents in ${pool.size} Web Worker${pool.size === 1 ? '' : 's'}…`, 'working');
  const started = performance.now();
  let set;
  try {
    set = await pool.sketchMany(state.docs.map((d) => d.bytes), {
      ...options,
      onProgress: (done, total) => { if (mine === generation) { bar.max = total; bar.value = done; } },
    });
  } catch (e) {
    if (mine === generation) setStatus(`sketching failed: ${message(e)}`, 'error');
    return;
  } finally {
    if (mine === generation) bar.hidden = true;
  }
  if (mine !== generation) return;
  state.sketchMs = performance.now() - started;
  state.set = set;
  state.names = state.docs.map((d) => d.name);
  state.sketchErrors = set.errors.map((e) => ({ name: state.names[e.index], message: e.message }));
  const bytes = state.docs.reduce((a, d) => a + d.bytes.length, 0);
  state.summary = `${set.size} documents (${size(bytes)}) sketched in ${state.sketchMs.toFixed(0)} ms by ${pool.size} Web Worker${pool.size === 1 ? '' : 's'}`;
  analyse();
}

/** Clusters the current sketch set and draws the results. */
function analyse() {
  const set = state.set;
  let t;
  try {
    t = threshold();
    state.nearDuplicates = resemble.nearDuplicates(set, { threshold: t });
  } catch (e) {
    setStatus(message(e), 'error');
    return;
  }
  state.records = clusterRecords(state.nearDuplicates.clusters, state.names);
  renderClusters($('clusters'), state.records, set.size);
  drawPairs();
  const skipped = state.errors.length + state.sketchErrors.length;
  showErrors();
  $('summary').textContent = `${state.summary}; ${state.records.length} near-duplicate cluster${state.records.length === 1 ? '' : 's'} at resemblance ≥ ${t}` +
    (skipped ? `; ${skipped} file${skipped === 1 ? '' : 's'} skipped (listed below)` : '');
  for (const id of ['export', 'export-names']) $(id).disabled = false;
  $('recompute').disabled = state.docs.length === 0;
  setStatus(`done: ${set.size} documents, ${state.records.length} cluster${state.records.length === 1 ? '' : 's'}`, 'done');
}

/** Document order for the matrix: each cluster's members together (representative first), then the rest. */
function clusterOrder() {
  const order = [];
  const seen = new Uint8Array(state.set.size);
  for (const r of state.records) for (const m of r.members) { order.push(m.doc); seen[m.doc] = 1; }
  for (let d = 0; d < state.set.size; d++) if (!seen[d]) order.push(d);
  return order;
}

function drawPairs() {
  const set = state.set;
  const sketches = Array.from({ length: Math.min(set.size, MAX_DOCS) }, (_, i) => set.get(i));
  const get = (d) => sketches[d] ?? set.get(d);
  const containment = $('measure').value === 'containment';
  const measure = containment
    ? (a, b) => resemble.containment(get(a), get(b))
    : (a, b) => resemble.resemblance(get(a), get(b));
  state.matrix = pairMatrix(clusterOrder(), measure, !containment);
  state.cell = drawMatrix($('matrix'), state.matrix);
  $('cell').textContent = set.size > MAX_DOCS ? `showing the first ${MAX_DOCS} of ${set.size} documents in cluster order` : '\u00a0';
}

function clearResults() {
  state.set = null;
  state.nearDuplicates = null;
  state.records = [];
  state.matrix = null;
  $('clusters').replaceChildren();
  $('matrix').width = $('matrix').height = 0;
  $('summary').textContent = '';
  for (const id of ['export', 'export-names', 'recompute']) $(id).disabled = true;
}

function download(bytes, name, type) {
  const url = URL.createObjectURL(new Blob([bytes], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Reads an exported .rsks file (and optionally its names .json) back. */
async function importSketches(files) {
  const list = [...files];
  const binary = list.filter((f) => !f.name.toLowerCase().endsWith('.json'));
  const namesFile = list.find((f) => f.name.toLowerCase().endsWith('.json'));
  const errors = [];
  if (binary.length !== 1) {
    state.errors.push({ name: list.map((f) => f.name).join(', '), message: `expected one .rsks sketch file (with an optional .json of names), got ${binary.length}` });
    showErrors();
    setStatus('import failed: see the list of errors', 'error');
    return;
  }
  let set;
  try {
    set = resemble.deserializeSketchSet(new Uint8Array(await binary[0].arrayBuffer()));
  } catch (e) {
    state.errors.push({ name: binary[0].name, message: message(e) });
    showErrors();
    setStatus(`import failed: ${binary[0].name} is not a usable sketch file`, 'error');
    return;
  }
  let names = Array.from({ length: set.size }, (_, i) => `#${i}`);
  if (namesFile) {
    try {
      const parsed = JSON.parse(await namesFile.text());
      if (!Array.isArray(parsed) || parsed.length !== set.size || !parsed.every((n) => typeof n === 'string')) {
        throw new Error(`expected a JSON array of ${set.size} names, got ${Array.isArray(parsed) ? `${parsed.length} entries` : typeof parsed}`);
      }
      names = parsed;
    } catch (e) {
      errors.push({ name: namesFile.name, message: `${e.message}; documents are numbered instead` });
    }
  }
  ++generation;
  state.docs = [];
  state.errors = errors;
  state.sketchErrors = [];
  state.set = set;
  state.names = names;
  const p = set.params;
  const kind = p.kind === 'min' ? `MIN_s s=${p.s}` : p.kind === 'mod' ? `MOD_m m=${p.m}` : 'adaptive MOD';
  state.summary = `${set.size} sketches imported from ${binary[0].name} (w=${p.w}, ${p.unit}, ${p.markup}, ${kind})`;
  analyse();
}

async function bench() {
  const button = $('run-bench');
  button.disabled = true;
  const tbody = $('bench-results').tBodies[0];
  tbody.replaceChildren();
  const mb = Number($('bench-size').value);
  setStatus(`benchmark: generating ${mb} MB…`, 'working');
  const docs = benchCorpus(mb);
  const cores = navigator.hardwareConcurrency || 4;
  const one = resemble.createPool({ workers: 1 });
  const many = cores > 1 ? resemble.createPool({ workers: cores }) : undefined;
  const runners = [
    { label: 'main thread', fingerprintMany: async (d) => resemble.fingerprintMany(d), sketchMany: async (d) => resemble.sketchMany(d) },
    { label: '1 Web Worker', fingerprintMany: (d) => one.fingerprintMany(d), sketchMany: (d) => one.sketchMany(d) },
  ];
  if (many) runners.push({ label: `${cores} Web Workers`, fingerprintMany: (d) => many.fingerprintMany(d), sketchMany: (d) => many.sketchMany(d) });
  try {
    setStatus(`benchmark: ${mb} MB, ${runners.length} configurations, best of 3…`, 'working');
    await runBench(resemble, docs, runners, (row) => {
      const tr = document.createElement('tr');
      for (const v of [row.label, row.fingerprintMBs.toFixed(1), row.sketchMBs.toFixed(1)]) {
        const td = document.createElement('td');
        td.textContent = v;
        tr.append(td);
      }
      tbody.append(tr);
    });
    setStatus(`benchmark done (${mb} MB, results checked equal across threads)`, 'done');
  } catch (e) {
    setStatus(`benchmark failed: ${message(e)}`, 'error');
  } finally {
    await Promise.all([one.close(), many?.close()]);
    button.disabled = false;
  }
}

function wire() {
  const drop = $('drop');
  drop.addEventListener('dragover', (e) => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const files = await droppedFiles(e.dataTransfer);
    const { docs, errors } = await readFiles(files);
    await addDocuments(docs, errors);
  });
  for (const id of ['files', 'folder']) {
    $(id).addEventListener('change', async (e) => {
      const { docs, errors } = await readFiles(e.target.files);
      e.target.value = '';
      await addDocuments(docs, errors);
    });
  }
  $('add-paste').addEventListener('click', async () => {
    const docs = pastedDocuments($('paste').value, state.docs.length + 1);
    $('paste').value = '';
    await addDocuments(docs, []);
  });
  $('sample').addEventListener('click', async () => {
    const enc = new TextEncoder();
    await addDocuments(exampleDocuments().map((d) => ({ name: d.name, bytes: enc.encode(d.text), charset: 'utf-8' })), []);
  });
  $('clear').addEventListener('click', () => {
    ++generation;
    state.docs = [];
    state.errors = [];
    state.sketchErrors = [];
    state.names = [];
    showErrors();
    clearResults();
    setStatus('ready: add documents', 'ready');
  });
  const kindFields = () => { $('s').disabled = $('kind').value !== 'min'; $('m').disabled = $('kind').value !== 'mod'; };
  kindFields();
  $('kind').addEventListener('change', kindFields);
  for (const id of ['w', 'kind', 's', 'm', 'markup']) $(id).addEventListener('change', () => state.docs.length && sketchAll());
  $('recompute').addEventListener('click', () => sketchAll());
  $('threshold').addEventListener('change', () => state.set && analyse());
  $('measure').addEventListener('change', () => state.set && drawPairs());
  $('workers').addEventListener('change', () => { replacePool(); if (state.docs.length) sketchAll(); });
  $('export').addEventListener('click', () => download(resemble.serializeSketchSet(state.set), 'sketches.rsks', 'application/octet-stream'));
  $('export-names').addEventListener('click', () => download(JSON.stringify(state.names), 'sketches.json', 'application/json'));
  $('import').addEventListener('change', async (e) => {
    await importSketches(e.target.files);
    e.target.value = '';
  });
  $('run-bench').addEventListener('click', bench);
  $('matrix').addEventListener('mousemove', (e) => {
    const m = state.matrix;
    if (!m || state.cell === 0) return;
    const rect = e.target.getBoundingClientRect();
    const c = Math.floor(((e.clientX - rect.left) / rect.width) * m.n), r = Math.floor(((e.clientY - rect.top) / rect.height) * m.n);
    if (r < 0 || c < 0 || r >= m.n || c >= m.n) return;
    const a = m.order[r], b = m.order[c];
    const sa = state.set.get(a), sb = state.set.get(b);
    $('cell').textContent = `${state.names[a]} × ${state.names[b]}: resemblance ${resemble.resemblance(sa, sb).toFixed(3)}, ` +
      `containment of the row in the column ${resemble.containment(sa, sb).toFixed(3)}, of the column in the row ${resemble.containment(sb, sa).toFixed(3)}`;
  });
}

async function main() {
  wire();
  drawScale($('scale'));
  $('workers').value = String(Math.min(navigator.hardwareConcurrency || 2, 4));
  try {
    await resemble.init();
    replacePool();
  } catch (e) {
    setStatus(`could not start: ${message(e)}`, 'error');
    return;
  }
  $('run-bench').disabled = false;
  setStatus('ready: add documents', 'ready');
}

// For scripted use (and the browser tests): the library, the page's state, and the clusters shown.
window.resembleDemo = { resemble, state, ready: main() };
