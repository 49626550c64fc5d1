import { describe, expect, it } from 'vitest';
import { OTHER_OP_COLOR, TX_COLORS, hslHex, opColor } from './index.js';

describe('chart colours shared by the dashboard and the HTML report', () => {
  it('an operation takes its workload colour; one a workload does not colour is grey', () => {
    expect(opColor('tprocc', 'neworder')).toEqual(TX_COLORS.neworder);
    expect(opColor('tprocc', 'nope')).toEqual(OTHER_OP_COLOR);
    expect(opColor('nope', 'neworder')).toEqual(OTHER_OP_COLOR);
    expect(opColor('tproch', 'rf1')).toEqual({ light: '#4b5563', dark: '#d1d5db' });
  });

  it('TPROC-H queries sit around the colour wheel as #rrggbb (the HSL the dashboard drew before, in a form ECharts on the server parses too)', () => {
    expect([hslHex(0, 100, 50), hslHex(120, 100, 50), hslHex(240, 100, 50), hslHex(0, 0, 100), hslHex(0, 0, 0)]).toEqual(['#ff0000', '#00ff00', '#0000ff', '#ffffff', '#000000']);
    // Q1: hue 138, 62% 42%.
    expect(opColor('tproch', 'q1').light).toBe(hslHex(138, 62, 42));
    expect(opColor('tproch', 'q1').light).toMatch(/^#[0-9a-f]{6}$/);
    const q = Array.from({ length: 22 }, (_, i) => opColor('tproch', `q${i + 1}`).light);
    expect(new Set(q).size).toBe(22);
  });
});
