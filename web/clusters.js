// Near-duplicate clusters with their evidence: each member, the member it joined through, how
// (identical, lexical, shingle-equivalent or near), and the estimates that put it there.

const round = (x) => Math.round(x * 1e4) / 1e4;

/** Takes a Clusters object and document names; returns plain records (what the page shows and the tests compare). */
export function clusterRecords(clusters, names) {
  const out = [];
  for (let i = 0; i < clusters.count; i++) {
    const c = clusters.cluster(i);
    out.push({
      id: c.id, size: c.size, chained: c.chained, representative: names[c.representative],
      members: c.members.map((m) => ({
        doc: m.doc, name: names[m.doc], kind: m.kind, via: m.via === null ? null : names[m.via],
        resemblance: round(m.resemblance), containment: round(m.containment), contains: round(m.contains), shared: m.shared,
      })),
    });
  }
  return out;
}

/** Takes the records and a container; fills it with one table per cluster. */
export function renderClusters(el, records, documents) {
  el.replaceChildren();
  if (records.length === 0) {
    el.append(paragraph(`No near-duplicates among ${documents} documents at this threshold.`));
    return;
  }
  const clustered = records.reduce((a, r) => a + r.size, 0);
  el.append(paragraph(`${records.length} cluster${records.length === 1 ? '' : 's'} holding ${clustered} of ${documents} documents.`));
  for (const r of records) {
    const box = document.createElement('details');
    box.className = 'cluster';
    box.open = records.length <= 20;
    box.dataset.cluster = String(r.id);
    const summary = document.createElement('summary');
    summary.textContent = `cluster ${r.id + 1}: ${r.size} documents, represented by ${r.representative}${r.chained ? ' (some members join only through a chain)' : ''}`;
    box.append(summary);
    const table = document.createElement('table');
    table.append(row('th', ['document', 'how', 'joined through', 'resemblance', 'containment in it', 'contains it', 'shared values']));
    for (const m of r.members) {
      table.append(row('td', [m.name, m.kind, m.via ?? '', m.via === null ? '' : m.resemblance.toFixed(3),
        m.via === null ? '' : m.containment.toFixed(3), m.via === null ? '' : m.contains.toFixed(3), m.via === null ? '' : String(m.shared)]));
    }
    box.append(table);
    el.append(box);
  }
}

function row(tag, cells) {
  const tr = document.createElement('tr');
  for (const c of cells) {
    const td = document.createElement(tag);
    td.textContent = c;
    tr.append(td);
  }
  return tr;
}

function paragraph(text) {
  const p = document.createElement('p');
  p.textContent = text;
  return p;
}
