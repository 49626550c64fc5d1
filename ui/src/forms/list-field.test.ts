import { describe, expect, it } from 'vitest';
import { collectTprocc, tprocc, tproccToForm } from '../workloads/tprocc/form.js';
import { fromFormValue, toFormValue } from './fields.js';
import { tcountOption } from '../charts/options/tcount.js';
import { paletteFor } from '../charts/options/palette.js';

describe('failover options in the run form', () => {
  it('retryOn is a list of error classes edited as comma-separated text', () => {
    const f = tprocc('retryOn');
    expect(f).toMatchObject({ kind: 'list', options: ['serialization', 'connection', 'timeout', 'constraint', 'other'], default: ['serialization'] });
    expect(toFormValue(f, ['serialization', 'connection'])).toBe('serialization, connection');
    expect(fromFormValue(f, ' serialization ,timeout,, ')).toEqual(['serialization', 'timeout']);
    expect(tproccToForm({ retryOn: ['connection'] })['retryOn']).toBe('connection');
  });
  it('reconnect and maxTries come with their defaults and reach the job body', () => {
    expect(tprocc('reconnect')).toMatchObject({ kind: 'boolean', default: true });
    expect(tprocc('maxTries')).toMatchObject({ kind: 'integer', default: 1, minimum: 1 });
    const body = collectTprocc({ reconnect: false, maxTries: '3', retryOn: 'serialization, connection' }, ['reconnect', 'maxTries', 'retryOn']);
    expect(body).toEqual({ reconnect: false, maxTries: 3, retryOn: ['serialization', 'connection'] });
  });
});

describe('NOPM/TPM chart marks', () => {
  it('draws a dashed line where sessions dropped and where they came back', () => {
    const o = tcountOption({ engine: [], tpmLabel: 'PostgreSQL TPM', range: undefined, palette: paletteFor('light'), marks: [{ ts: 1, label: 'lost 2', kind: 'drop' }, { ts: 2, label: 'back 2', kind: 'back' }] });
    const ml = (o.series as { markLine?: { data: { xAxis: number; name: string }[] } }[])[0]!.markLine!;
    expect(ml.data.map((d) => [d.xAxis, d.name])).toEqual([
      [1, 'lost 2'],
      [2, 'back 2'],
    ]);
    expect((tcountOption({ engine: [], tpmLabel: 'x', range: undefined, palette: paletteFor('light') }).series as { markLine?: unknown }[])[0]!.markLine).toBeUndefined();
  });
});
