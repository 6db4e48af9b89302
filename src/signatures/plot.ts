/** The precision–recall plot of Di Iorio et al. Figure 1: one curve per fixed D along C, and the RP-only curve along D. */
import { plotSeries } from '../report/plot.js';
import type { PrPoint } from './evaluate.js';

/** Takes precision–recall points; returns the SVG (x recall, y precision, one line per curve). */
export function precisionRecallPlot(points: readonly PrPoint[]): Promise<string> {
  const curves = new Map<string, Array<{ x: number; y: number }>>();
  for (const p of points) curves.set(p.curve, [...(curves.get(p.curve) ?? []), { x: p.recall, y: p.precision }]);
  return plotSeries([...curves].map(([name, pts]) => ({ name, points: pts })), {
    title: 'Precision–recall as the tolerances C (HM) and D (RP) vary',
    x: 'recall',
    y: 'precision',
    mark: 'line',
  });
}
