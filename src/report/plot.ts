/**
 * SVG charts through Vega-Lite (a maintained grammar of graphics) rendered headless with Vega:
 * no hand-built SVG. Node and browsers alike; Vega measures text without a canvas. Both are
 * loaded on first use: they are large, and Vega's Node build uses top-level await, which a
 * CommonJS `require` of this package must never reach.
 */
import type * as VegaLite from 'vega-lite';

/** A Vega-Lite spec (top-level). */
export type VegaLiteSpec = VegaLite.TopLevelSpec;

/** Renders a Vega-Lite spec to an SVG string. */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
  const compiled = vl.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** One named line of a chart: its points. */
export interface PlotSeries {
  /** Legend label. */
  name: string;
  points: Array<{ x: number; y: number }>;
}

/** A chart's title, axis titles and scales. */
export interface PlotOptions {
  title: string;
  x: string;
  y: string;
  logX?: boolean;
  logY?: boolean;
  /** 'point' for scatter plots (default), 'line' for curves. */
  mark?: 'point' | 'line';
  width?: number;
  height?: number;
}

/** One scatter or line chart of several named series, as SVG. */
export function plotSeries(series: PlotSeries[], o: PlotOptions): Promise<string> {
  const values = series.flatMap((s) => s.points.map((p) => ({ series: s.name, x: p.x, y: p.y })));
  const scale = (log?: boolean) => (log ? { type: 'log' as const } : { zero: false });
  return renderSvg({
    $schema: 'https://vega.github.io/schema/vega-lite/v5.json',
    title: o.title,
    width: o.width ?? 480,
    height: o.height ?? 320,
    data: { values },
    mark: o.mark === 'line' ? { type: 'line', point: true } : { type: 'point', filled: true },
    encoding: {
      x: { field: 'x', type: 'quantitative', title: o.x, scale: scale(o.logX) },
      y: { field: 'y', type: 'quantitative', title: o.y, scale: scale(o.logY) },
      color: { field: 'series', type: 'nominal', title: null },
    },
  } as VegaLiteSpec);
}
