import { describe, expect, it } from 'vitest';
import { esc, html, raw } from '../dist/report/escape.js';
import { flatten } from '../dist/report/tables.js';
import { downsample, int, ms, pctChange } from '../dist/report/format.js';
import { renderSvg } from '../dist/report/svg.js';
import { clientRatesOption } from '../dist/report/job-charts.js';
import { DARK, LIGHT } from '../dist/report/palette.js';
import { CHART_COLORS, TX_COLORS, TX_PROC, TX_TYPES, opColor } from '@sledge/protocol';
import { makeApp } from './helpers.js';

describe('report building blocks', () => {
  it('escapes markup, quotes and URL schemes; the html template escapes all but Html', () => {
    expect(esc(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(esc('see https://example.com and ftp://h')).toBe('see https&#58;//example.com and ftp&#58;//h');
    expect(esc(undefined)).toBe('');
    expect(esc({ a: '<b>' })).toBe('{&quot;a&quot;:&quot;&lt;b&gt;&quot;}');
    const label = '<script>x</script>';
    expect(html`<p>${label}</p>${raw('<br>')}${[html`<i>${'&'}</i>`, '<b>']}`.__html).toBe('<p>&lt;script&gt;x&lt;/script&gt;</p><br><i>&amp;</i>&lt;b&gt;');
  });

  it('flattens a configuration to dotted paths', () => {
    expect(flatten({ target: { engine: 'postgresql', password: '********' }, tprocc: { vus: 4, steps: [{ vus: 1 }, { vus: 2 }] }, tags: ['a', 'b'], empty: {} })).toEqual([
      ['target.engine', 'postgresql'],
      ['target.password', '********'],
      ['tprocc.vus', '4'],
      ['tprocc.steps[0].vus', '1'],
      ['tprocc.steps[1].vus', '2'],
      ['tags', 'a, b'],
      ['empty', '{}'],
    ]);
  });

  it('formats numbers the same everywhere and averages long series down', () => {
    expect(int(1234567.4)).toBe('1,234,567');
    expect(ms(0.41234)).toBe('0.412');
    expect(ms(12.345)).toBe('12.3');
    expect(ms(1530.2)).toBe('1,530');
    expect(pctChange(103, 100)).toBe('+3.0%');
    expect(pctChange(1, 0)).toBe('');
    const rows = Array.from({ length: 10 }, (_, i) => ({ ts: i, v: i }));
    expect(downsample(rows, 5, (g) => ({ ts: g[0]!.ts, v: g.reduce((a, x) => a + x.v, 0) / g.length }))).toEqual([
      { ts: 0, v: 0.5 },
      { ts: 2, v: 2.5 },
      { ts: 4, v: 4.5 },
      { ts: 6, v: 6.5 },
      { ts: 8, v: 8.5 },
    ]);
  });

  it("draws each transaction in protocol's colour, the dashboard's (not the series order), and takes the shared chart colours", () => {
    const rates = Object.fromEntries(TX_TYPES.map((t) => [t, 1]));
    const client = [0, 1000].map((ts) => ({ ts, rates, commits: 5, rollbacks: 0, errors: 0 })) as never;
    for (const [p, mode] of [[LIGHT, 'light'], [DARK, 'dark']] as const) {
      const series = clientRatesOption(client, (ts: number) => ts / 1000, undefined, p).series as { name: string; color: string }[];
      expect(series.map((x) => [x.name, x.color])).toEqual(TX_TYPES.map((t) => [TX_PROC[t], TX_COLORS[t][mode]]));
      expect(series.map((x) => x.color)).toEqual(TX_TYPES.map((t) => opColor('tprocc', t)[mode]));
      expect([p.nopm, p.tpm, p.p95, p.series]).toEqual([CHART_COLORS[mode].nopm, CHART_COLORS[mode].tpm, CHART_COLORS[mode].p95, CHART_COLORS[mode].series]);
    }
    // PAYMENT is green in both, not the report's old second series colour (red).
    expect(TX_COLORS.payment.light).toBe('#16a34a');
  });

  it('renders an ECharts option to SVG without a DOM, with no namespace URL and series names escaped', () => {
    const svg = renderSvg({ xAxis: { type: 'category', data: ['http://a'] }, yAxis: { type: 'value' }, legend: {}, series: [{ name: '<b>x</b>', type: 'bar', data: [3] }] }, { width: 400, height: 200 });
    expect(svg).toMatch(/^<svg role="img" [^>]*viewBox="0 0 400 200">/);
    expect(svg).toContain('<path d="M');
    expect(svg).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(svg).toContain('http&#58;//a');
    expect(svg).not.toMatch(/xmlns|https?:\/\//);
  });
});

describe('report routes and the API token', () => {
  it('need the token, except the share-link report', async () => {
    const s = await makeApp({ token: 'report-test-token' });
    try {
      for (const url of ['/api/v1/jobs/FFFFFFFFFFFFFFFFFFFFFFFF/report', '/api/v1/compare/report?jobs=A,B']) {
        const r = await s.app.inject({ method: 'GET', url });
        expect(r.statusCode, url).toBe(401);
        expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'SLEDGE_E_UNAUTHORIZED' } });
      }
      const withToken = await s.app.inject({ method: 'GET', url: '/api/v1/jobs/FFFFFFFFFFFFFFFFFFFFFFFF/report', headers: { authorization: 'Bearer report-test-token' } });
      expect(withToken.statusCode).toBe(404);
      // Public: an unknown share token is a 404, not a 401.
      const shared = await s.app.inject({ method: 'GET', url: '/api/v1/shared/0123456789abcdef/report' });
      expect(shared.statusCode).toBe(404);
      expect(JSON.parse(shared.body)).toMatchObject({ error: { code: 'SLEDGE_E_NOT_FOUND', field: 'token' } });
    } finally {
      await s.app.close();
    }
  });
});
