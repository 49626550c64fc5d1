import { describe, expect, it } from 'vitest';
import type { Driver } from '../driver.js';
import { checkScriptsOnDriver, parseJobScripts, scriptWorkload, type ScriptInput, type ScriptRunOptions } from './workload.js';

const opts = (scripts: ScriptRunOptions['scripts']): ScriptRunOptions => ({ scripts, vus: 3, rampup: 0.5, duration: 2, scale: 4, workers: 0 });
const OPTS = opts([
  { name: 'a', text: 'SELECT 1;', weight: 5 },
  { name: 'b', text: 'SELECT 2;', weight: 1 },
  { name: 'never', text: 'SELECT 3;', weight: 0 },
]);

describe('the script VU workload', () => {
  it("has one operation per script, from the job's options", () => {
    const w = scriptWorkload.forOptions!(OPTS);
    expect(w.operations).toEqual(['a', 'b', 'never']);
    expect(w.operationLabels).toEqual(['a', 'b', 'never']);
    expect(w.vuPlan(OPTS)).toMatchObject({ vus: 3, mode: 'timed', rampupMinutes: 0.5, durationMinutes: 2, paced: false });
  });

  it('plans step loads (VU slots of the largest step) and an arrival rate (one VU per session) as TPROC-C does', () => {
    const w = scriptWorkload.forOptions!(OPTS);
    const steps = w.vuPlan({ ...OPTS, steps: [{ startAfterMin: 0, durationMin: 1, vus: 2 }, { startAfterMin: 1, durationMin: 1, vus: 5 }] });
    expect(steps.vus).toBe(5);
    expect(steps.steps).toEqual([{ index: 1, vus: 2, startSec: 0, endSec: 60 }, { index: 2, vus: 5, startSec: 60, endSec: 120 }]);
    const arrival = w.vuPlan({ ...OPTS, arrival: { rate: 100, rampTo: 200, maxSessions: 8 } });
    expect(arrival.vus).toBe(8);
    expect(arrival.arrival).toEqual({ rate: 100, rampTo: 200, spanSec: 150, maxSessions: 8, dropSlackMs: 25 });
    expect(w.vuPlan(OPTS).steps).toBeUndefined();
    expect(w.vuPlan(OPTS).arrival).toBeUndefined();
  });

  it('draws scripts by weight, deterministically per seed and VU', () => {
    const w = scriptWorkload.forOptions!(OPTS);
    const draw = (position: number, seed = 7) => {
      const st = w.stream({ seed, options: OPTS, params: { scale: 4 }, position, activeVus: 3, client: 0 });
      return Array.from({ length: 6000 }, () => st.next() as { op: number; input: ScriptInput });
    };
    const xs = draw(2);
    const share = xs.filter((x) => x.op === 0).length / xs.length;
    expect(Math.abs(share - 5 / 6)).toBeLessThan(0.02);
    expect(xs.some((x) => x.op === 2)).toBe(false);
    expect(xs.every((x) => x.input.scale === 4 && x.input.jobSeed === 7)).toBe(true);
    expect(draw(2).map((x) => [x.op, x.input.seed])).toEqual(xs.map((x) => [x.op, x.input.seed]));
    expect(draw(3).map((x) => x.input.seed)).not.toEqual(xs.map((x) => x.input.seed));
  });

  it("the monitor's result: TPS and each script's transactions and errors in the window", async () => {
    const w = scriptWorkload.forOptions!(OPTS);
    const m = await w.openMonitor({ driver: {} as Driver, target: { engine: 'sqlite' } as never, engine: 'sqlite', features: {} as never, options: OPTS, log: () => undefined });
    expect((await m.prepare()).params).toEqual({ scale: 4 });
    const { result, lines } = m.result({ start: {}, end: {}, seconds: 10, clientOps: 600, perOp: [500, 100, 0], errorsPerOp: [0, 3, 0], vus: 3 });
    expect(result).toMatchObject({ tps: 60, transactions: 600, failed: 3, activeVus: 3, scale: 4 });
    expect(result.scripts).toEqual([
      { name: 'a', weight: 5, transactions: 500, errors: 0, tps: 50 },
      { name: 'b', weight: 1, transactions: 100, errors: 3, tps: 10 },
      { name: 'never', weight: 0, transactions: 0, errors: 0, tps: 0 },
    ]);
    expect(lines[0]).toBe('TEST RESULT : System achieved 60 TPS (600 transactions, 3 failed in 10.0 s, 3 VU)');
    expect(w.headline(result)).toEqual({ metric: 'tps', value: 60, unit: 'TPS' });
  });

  it('parses every script with the field that holds it', () => {
    expect(() => parseJobScripts(opts([{ name: 'ok', text: 'SELECT 1;', weight: 1 }, { name: 'bad', text: '\\sleep', weight: 1 }]))).toThrow(
      expect.objectContaining({ field: 'script.scripts[1].text', message: 'bad:1:7: \\sleep needs a duration' }),
    );
  });

  it('a pipelined script runs on a driver with pipelines, and is refused, naming the script and line, on one without', () => {
    const scripts = parseJobScripts(opts([{ name: 'ok', text: 'SELECT 1;', weight: 1 }, { name: 'p', text: 'SELECT 0;\n\\startpipeline\nSELECT 1;\n\\endpipeline\n', weight: 1 }]));
    const session = { openParamSession: async () => ({}) };
    expect(() => checkScriptsOnDriver(scripts, { ...session, engine: 'postgresql', paramPipelines: true } as unknown as Driver)).not.toThrow();
    expect(() => checkScriptsOnDriver(scripts, { ...session, engine: 'mariadb' } as unknown as Driver)).toThrow(expect.objectContaining({
      code: 'SLEDGE_E_VALIDATION',
      field: 'script.scripts[1].text',
      message: expect.stringMatching(/^p:2: \\startpipeline: mariadb has no pipeline mode in its protocol \(PostgreSQL has\)/),
    }));
  });

  it('a script with \\syncpipeline is refused on a driver without pipelines as \\startpipeline is, the message naming all three', () => {
    const scripts = parseJobScripts(opts([{ name: 's', text: '\\startpipeline\nSELECT 1;\n\\syncpipeline\nSELECT 2;\n\\endpipeline\n', weight: 1 }]));
    const session = { openParamSession: async () => ({}) };
    expect(() => checkScriptsOnDriver(scripts, { ...session, engine: 'postgresql', paramPipelines: true } as unknown as Driver)).not.toThrow();
    expect(() => checkScriptsOnDriver(scripts, { ...session, engine: 'sqlite' } as unknown as Driver)).toThrow(expect.objectContaining({
      code: 'SLEDGE_E_VALIDATION',
      field: 'script.scripts[0].text',
      message: 's:1: \\startpipeline: sqlite has no pipeline mode in its protocol (PostgreSQL has), and a pipelined script run one statement at a time would not measure what it says; run it on PostgreSQL, or remove \\startpipeline, \\syncpipeline and \\endpipeline to run its statements one by one',
    }));
  });
});
