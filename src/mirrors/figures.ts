/**
 * The data of Bharat et al.'s Figures 1, 3 and 4 from evaluated rankings: precision at rank,
 * relative recall at rank, and precision against recall, one series per algorithm. Rendering is
 * left to the caller (the CLI draws them with Vega-Lite through src/report/plot.ts).
 */
import type { Curve } from './evaluate.js';

/** One chart: a file name, series of points, and its titles (the shape `plotSeries` takes). */
export interface FigureData {
  file: string;
  series: Array<{ name: string; points: Array<{ x: number; y: number }> }>;
  options: { title: string; x: string; y: string; mark: 'line' };
}

/** Takes the number of ranks and a budget; returns the ranks (1-based) to plot: evenly spaced, the last always included. */
export function plotRanks(n: number, points = 100): number[] {
  if (n <= points) return Array.from({ length: n }, (_, i) => i + 1);
  const out: number[] = [];
  for (let i = 1; i <= points; i++) out.push(Math.round((i * n) / points));
  return out;
}

/** Takes evaluation curves; returns the data of Figure 1 (precision at rank), Figure 3 (relative recall at rank) and Figure 4 (precision vs recall). */
export function mirrorFigures(curves: readonly Curve[], points = 100): FigureData[] {
  const at = (c: Curve, y: Float64Array, x?: Float64Array) => plotRanks(c.precision.length, points).map((k) => ({ x: x ? x[k - 1] : k, y: y[k - 1] }));
  const nonEmpty = curves.filter((c) => c.precision.length > 0);
  return [
    {
      file: 'figure1-precision-at-rank.svg',
      series: nonEmpty.map((c) => ({ name: c.algorithm, points: at(c, c.precision) })),
      options: { title: 'Precision at rank', x: 'rank', y: 'precision', mark: 'line' },
    },
    {
      file: 'figure3-relative-recall-at-rank.svg',
      series: nonEmpty.map((c) => ({ name: c.algorithm, points: at(c, c.relativeRecall) })),
      options: { title: 'Relative recall at rank', x: 'rank', y: 'relative recall', mark: 'line' },
    },
    {
      file: 'figure4-precision-recall.svg',
      series: nonEmpty.map((c) => ({ name: c.algorithm, points: at(c, c.precision, c.recall) })),
      options: { title: 'Precision vs recall', x: 'recall', y: 'precision', mark: 'line' },
    },
  ];
}
