import { describe, expect, it } from 'vitest';
import { SledgeError } from '../errors.js';
import { parseTproccOptions } from '../workloads/tprocc.js';
import { checkSteps, parseStepsText, stepSlots, stepWindows, stepsToText } from './steps.js';

const fieldOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof SledgeError) return e.field;
    throw e;
  }
  return undefined;
};

describe('step loads', () => {
  it('each step starts startAfterMin after the previous one started; slots are the largest step', () => {
    const steps = [
      { startAfterMin: 0.5, durationMin: 1, vus: 2 },
      { startAfterMin: 1, durationMin: 1, vus: 8 },
      { startAfterMin: 1.5, durationMin: 0.5, vus: 4 },
    ];
    expect(stepWindows(steps)).toEqual([
      { index: 1, vus: 2, startSec: 30, endSec: 90 },
      { index: 2, vus: 8, startSec: 90, endSec: 150 },
      { index: 3, vus: 4, startSec: 180, endSec: 210 },
    ]);
    expect(stepSlots(steps)).toBe(8);
    expect(() => checkSteps(steps, 1, 2.5)).not.toThrow();
    expect(fieldOf(() => checkSteps(steps, 1, 2.4))).toBe('tprocc.steps');
    expect(fieldOf(() => checkSteps([steps[0]!, { startAfterMin: 0.9, durationMin: 1, vus: 2 }], 0, 10))).toBe('tprocc.steps.1.startAfterMin');
  });
  it('the text form round-trips and names the bad step', () => {
    const s = parseStepsText(' 0:1:2 ,1:1:4');
    expect(s).toEqual([
      { startAfterMin: 0, durationMin: 1, vus: 2 },
      { startAfterMin: 1, durationMin: 1, vus: 4 },
    ]);
    expect(stepsToText(s)).toBe('0:1:2, 1:1:4');
    expect(() => parseStepsText('0:1:2,x:1:4')).toThrow(/step 2 "x:1:4"/);
  });
  it('tprocc options: steps and arrival are checked across fields, naming the field', () => {
    expect(parseTproccOptions({ rampup: 0, duration: 1, steps: [{ startAfterMin: 0, durationMin: 1, vus: 3 }] }).steps).toHaveLength(1);
    expect(fieldOf(() => parseTproccOptions({ driver: 'test', steps: [{ startAfterMin: 0, durationMin: 1, vus: 3 }] }))).toBe('tprocc.steps');
    expect(fieldOf(() => parseTproccOptions({ steps: [{ startAfterMin: 0, durationMin: 1, vus: 0 }] }))).toBe('tprocc.steps.0.vus');
    expect(parseTproccOptions({ arrival: { rate: 10 } }).arrival).toEqual({ rate: 10, maxSessions: 64 });
    expect(fieldOf(() => parseTproccOptions({ arrival: { rate: 0, maxSessions: 2 } }))).toBe('tprocc.arrival.rate');
    expect(fieldOf(() => parseTproccOptions({ asyncScale: true, arrival: { rate: 5, maxSessions: 2 } }))).toBe('tprocc.arrival');
    expect(fieldOf(() => parseTproccOptions({ keyAndThink: true, arrival: { rate: 5, maxSessions: 2 } }))).toBe('tprocc.arrival');
  });
});
