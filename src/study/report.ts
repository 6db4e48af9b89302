/** The study as the paper prints it: Tables 2–6 and the growth per step in markdown, Figures 2–5 as SVG. */
import { plotSeries, type PlotSeries } from '../report/plot.js';
import type { StudyReport } from './study.js';

const int = (x: number) => x.toLocaleString('en-US');
const pc = (x: number) => `${x.toFixed(1)}%`;

function table(head: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---:')), ...rows.map(line)].join('\n');
}

/** Takes a study report; returns its tables in markdown (the paper's numbering). */
export function studyMarkdown(r: StudyReport): string {
  const out: string[] = [];
  const d = r.documents;
  out.push(`Documents: ${int(d.input)} read, ${int(d.considered)} considered, ${int(d.leftOut)} left out (too short or no text)` +
    (d.connected !== undefined ? `; ${int(d.connected)} connected (${pc((100 * d.connected) / Math.max(1, d.considered))}), ${int(d.disconnected!)} disconnected` : '') + '.');
  out.push('', '**Table 2.** General statistics about duplicates.', '',
    table(['# docs', '# clusters', '# dup.', '% dup.'], [[int(r.general.documents), int(r.general.clusters), int(r.general.duplicates), pc(r.general.percent)]]));
  if (r.near.length > 0) {
    out.push('', '**Table 3.** Near-duplicates: documents sharing at least p% of their shingle paragraphs.', '',
      table(['% dup.', ...r.near.map((n) => `${n.percent}% near.`)], [[pc(r.general.percent), ...r.near.map((n) => pc(n.percentNear))]]));
  }
  if (r.parts) {
    const cell = (p: { duplicates: number; percent: number }) => `${int(p.duplicates)} (${pc(p.percent)})`;
    out.push('', '**Table 4.** Duplicates in the complete collection and in the connected and disconnected parts.', '',
      table(['# comp. (%)', '# con. (%)', '# discon. (%)'], [[cell(r.parts.complete), cell(r.parts.connected), cell(r.parts.disconnected)]]));
  }
  if (r.clustersReached) {
    const c = r.clustersReached;
    out.push('', '**Table 5.** Clusters with at least one document in the connected part.', '',
      table(['# clusters', '# with a doc in con.', '% with a doc in con.'], [[int(c.clusters), int(c.withConnected), pc(c.percent)]]));
  }
  if (r.uniqueReached) {
    const u = r.uniqueReached;
    out.push('', '**Table 6.** Unique documents in the connected part, and useful documents (unique + one per cluster).', '',
      table(['total # unique', '# unique in con.', '% unique in con.', '# useful', '# useful in con.', '% useful in con.'],
        [[int(u.unique), int(u.uniqueConnected), pc(u.percent), int(u.useful), int(u.usefulConnected), pc(u.percentUseful)]]));
  }
  const est = new Map((r.estimates ?? []).map((e) => [e.iteration, e]));
  out.push('', `**Growth** of clusters and duplicates per step (m = ${r.growth.parts}; Figure 5)` +
    (r.estimates ? ', with the final % dup. estimated from each step and the reference profile (§4.2).' : '.'), '',
    table(['step', '# docs in S_0..S_i', '# clusters', '# dup.', '% of final dup.', ...(r.estimates ? ['estimated % dup.'] : [])],
      r.growth.points.map((g, i) => [g.iteration, int(g.documents), int(g.clusters), int(g.duplicates), pc(100 * r.growth.profile[i].duplicates),
        ...(r.estimates ? [est.has(g.iteration) ? pc(est.get(g.iteration)!.estimatedPercent) : '–'] : [])])));
  return out.join('\n') + '\n';
}

/** Takes a study report; returns SVG files by name: cluster-size distributions (Figures 2–4) and growth (Figure 5). */
export async function studyPlots(r: StudyReport): Promise<Record<string, string>> {
  const dist: PlotSeries[] = [];
  const add = (name: string, ds: StudyReport['distributions']['complete'] | undefined) => {
    if (ds && ds.length > 0) dist.push({ name, points: ds.map((x) => ({ x: x.size, y: x.clusters })) });
  };
  add('complete', r.distributions.complete);
  add('connected', r.distributions.connected);
  add('disconnected', r.distributions.disconnected);
  const files: Record<string, string> = {};
  files['cluster-sizes.svg'] = await plotSeries(dist, {
    title: 'Clusters by number of documents (log–log)', x: 'documents in the cluster', y: 'clusters', logX: true, logY: true,
  });
  const g = r.growth.points;
  files['growth.svg'] = await plotSeries([
    { name: 'documents loaded', points: g.map((p) => ({ x: p.iteration, y: p.documents })) },
    { name: 'clusters', points: g.map((p) => ({ x: p.iteration, y: p.clusters })) },
    { name: 'duplicates', points: g.map((p) => ({ x: p.iteration, y: p.duplicates })) },
  ], { title: `Growth per step (m = ${r.growth.parts})`, x: 'step', y: 'count', mark: 'line' });
  return files;
}
