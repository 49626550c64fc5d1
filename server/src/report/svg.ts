import { createRequire } from 'node:module';
import type { EChartsOption } from 'echarts';
import { DARK, LIGHT, type Palette } from './palette.js';
import { html, raw, type Html } from './escape.js';

type ECharts = typeof import('echarts');

/**
 * ECharts, loaded on the first chart: its CommonJS build (one file, ~0.2 s)
 * rather than its ES modules (~600 files, ~0.6 s), and only in a process that
 * draws a chart, not in every one that loads the app (the server, each
 * `sledge --local` command). Both give the same SVG.
 */
let loaded: ECharts | undefined;
function echarts(): ECharts {
  return (loaded ??= createRequire(import.meta.url)('echarts') as ECharts);
}

export interface ChartSize {
  width: number;
  height: number;
}

/**
 * One chart as an SVG string, rendered by ECharts' server-side SVG renderer
 * (no DOM, no canvas). The namespace declarations are dropped: the SVG is
 * inlined in HTML, where the parser puts it in the SVG namespace itself, and
 * the page then holds no URL at all.
 */
export function renderSvg(option: EChartsOption, size: ChartSize): string {
  const chart = echarts().init(null, null, { renderer: 'svg', ssr: true, width: size.width, height: size.height });
  try {
    chart.setOption({ animation: false, backgroundColor: 'transparent', textStyle: { fontFamily: 'system-ui, sans-serif' }, ...option });
    return chart
      .renderToSVGString()
      .replace(/\s+xmlns(:xlink)?="[^"]*"/g, '')
      .replace(/<svg /, '<svg role="img" preserveAspectRatio="xMinYMin meet" ')
      // A label such as "http://host" stays readable but is not a URL in the page's source.
      .replace(/:\/\//g, '&#58;//');
  } finally {
    chart.dispose();
  }
}

/**
 * A chart for both colour schemes: the light rendering and the dark one, and
 * the page's CSS shows the one matching prefers-color-scheme.
 */
export function themedChart(title: string, build: (p: Palette) => EChartsOption, size: ChartSize = { width: 760, height: 280 }): Html {
  const light = renderSvg(build(LIGHT), size);
  const dark = renderSvg(build(DARK), size);
  return html`<figure class="chart" aria-label="${title}"><figcaption>${title}</figcaption><div class="svg light">${raw(light)}</div><div class="svg dark">${raw(dark)}</div></figure>`;
}
