import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '@sledge/protocol';
import { parseReplicas, replicasToSteps } from '../src/routes/hammerdb/steprun.js';
import { BodyError } from '../src/routes/hammerdb/reply.js';
import { makeApp, waitJob, type SledgeApp } from './helpers.js';
import { sqliteFromTemplate } from './sqlite-template.js';

describe('steprun: HammerDB replicas as one step schedule', () => {
  it('adds each replica to the primary from the end of rampup, each after the previous, merged where counts match', () => {
    // Primary 2 VUs for 1 + 4 min; replica 1 (+3) from 1 to 3, replica 2 (+4) from 2 to 4.
    expect(replicasToSteps(2, 1, 4, [{ startAfterPrev: 9, duration: 2, virtualUsers: 3 }, { startAfterPrev: 1, duration: 2, virtualUsers: 4 }])).toEqual([
      { startAfterMin: 0, durationMin: 1, vus: 2 },
      { startAfterMin: 1, durationMin: 1, vus: 5 },
      { startAfterMin: 1, durationMin: 1, vus: 9 },
      { startAfterMin: 1, durationMin: 1, vus: 6 },
      { startAfterMin: 1, durationMin: 1, vus: 2 },
    ]);
    // Back to back replicas of the same size are one step.
    expect(replicasToSteps(1, 0, 2, [{ startAfterPrev: 0, duration: 1, virtualUsers: 1 }, { startAfterPrev: 1, duration: 1, virtualUsers: 1 }])).toEqual([{ startAfterMin: 0, durationMin: 2, vus: 2 }]);
  });
  it('reads replicaN.* keys and says what is wrong', () => {
    expect(parseReplicas([['replica2.duration', '1'], ['replica2.virtual_users', '4'], ['replica2.start_after_prev', '1'], ['replica1.duration', '2'], ['replica1.virtual_users', '2'], ['replica1.start_after_prev', '0']])).toEqual([
      { startAfterPrev: 0, duration: 2, virtualUsers: 2 },
      { startAfterPrev: 1, duration: 1, virtualUsers: 4 },
    ]);
    expect(() => parseReplicas([])).toThrow(BodyError);
    expect(() => parseReplicas([['replica1.vus', '2']])).toThrow(/unknown key "replica1.vus"/);
    expect(() => parseReplicas([['replica1.duration', '1']])).toThrow(/replica1.start_after_prev is missing/);
  });
});

describe('POST /steprun on SQLite', () => {
  let s: SledgeApp & { dataDir: string };
  const call = async (url: string, body = '') => JSON.parse((await s.app.inject({ method: 'POST', url, payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).body) as { success?: { message: string }; error?: { message: string } };
  beforeAll(async () => {
    s = await makeApp();
  });
  afterAll(async () => {
    await s.app.close();
  });

  it('runs the primary plus two replicas as two steps of one job', async () => {
    await call('/dbset', ' "db": "sqlite" ');
    await call('/diset', ' "dict": "connection", "key": "sqlite_file", "value": "shapes_hdb.sqlite" ');
    // The schema is a copy of the sqlite tier's prebuilt one: the subject is steprun, not buildschema (hammerdb.test.ts builds).
    sqliteFromTemplate(s, 'shapes_hdb.sqlite');
    await call('/diset', ' "dict": "tpcc", "key": "sqlite_rampup", "value": "0" ');
    await call('/diset', ' "dict": "tpcc", "key": "sqlite_duration", "value": "0.2" ');
    await call('/vuset', ' "delay": "0" ');
    await call('/loadscript');
    expect((await call('/steprun', ' "replica1.start_after_prev": "0", "replica1.duration": "1" ')).error!.message).toMatch(/replica1.virtual_users is missing/);
    // Too long for rampup + duration: the server's check, naming the HammerDB keys' Sledge field.
    expect((await call('/steprun', ' "replica1.start_after_prev": "0", "replica1.duration": "1", "replica1.virtual_users": "1" ')).error!.message).toMatch(/steps ends at 1 minutes/);
    // Two steps of 6 s each (0.1 min): long enough for NOPM > 0 in each.
    const r = await call('/steprun', ' "replica1.start_after_prev": "0", "replica1.duration": "0.1", "replica1.virtual_users": "1", "replica2.start_after_prev": "0.1", "replica2.duration": "0.1", "replica2.virtual_users": "2" ');
    expect(r.success!.message).toMatch(/^Running Virtual Users in 2 steps \(2, 3 VUs; replicas run as steps of this one job\): JOBID=\w+$/);
    const job: Job = await waitJob(s, /JOBID=(\w+)$/.exec(r.success!.message)![1]!);
    expect(job.status, JSON.stringify(job.error)).toBe('completed');
    const steps = (job.result as unknown as { steps: { vus: number; nopm: number }[] }).steps;
    expect(steps.map((x) => x.vus)).toEqual([2, 3]);
    expect(steps.every((x) => x.nopm > 0)).toBe(true);
  });
});
