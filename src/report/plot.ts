/**
 * SVG charts through Vega-Lite (a maintained grammar of graphics) rendered headless with Vega:
 * no hand-built SVG. Node and browsers alike; Vega measures text without a canvas. Both are
 * optional peer dependencies (11 MB that most users never need), loaded on first use: a plot asked
 * for without them is E_ENGINE naming the packages. Loading late also keeps Vega's Node build,
 * which uses top-level await, away from a CommonJS `require` of this package.
 */
import { ResembleError } from '../errors.js';
import type * as VegaLite from 'vega-lite';

/** A Vega-Lite spec (top-level). */
export type VegaLiteSpec = VegaLite.TopLevelSpec;

/** The optional peer dependencies that draw the plots. */
const PLOT_PACKAGES = ['vega', 'vega-lite'] as const;
type PlotModules = [typeof import('vega'), typeof import('vega-lite')];
let loaded: Promise<PlotModules> | undefined;

/**
 * Returns the `vega` and `vega-lite` modules, imported on first use; throws E_ENGINE naming the
 * packages when one is not installed (or does not load).
 */
export async function loadPlotting(): Promise<PlotModules> {
  loaded ??= Promise.all([import('vega'), import('vega-lite')]).catch((cause: unknown) => {
    loaded = undefined;
    const { code, message } = (cause ?? {}) as { code?: string; message?: string };
    const which = PLOT_PACKAGES.find((n) => String(message).includes(`'${n}'`));
    const missing = (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && which !== undefined;
    const install = `npm install ${PLOT_PACKAGES.join(' ')}`;
    throw new ResembleError('E_ENGINE', missing
      ? `plots need the optional packages ${PLOT_PACKAGES.join(' and ')}; ${which} is not installed: ${install}`
      : `plots could not load ${PLOT_PACKAGES.join(' and ')} (${String(message ?? cause).split('\n')[0]}): reinstall them with ${install}`, { packages: [...PLOT_PACKAGES], cause: String(cause) });
  });
  return loaded;
}

/** Renders a Vega-Lite spec to an SVG string (E_ENGINE when vega or vega-lite is not installed). */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const [vega, vl] = await loadPlotting();
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
