import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { SledgeError } from '@sledge/protocol';
import { FIELD_FLAGS, jobBody, type Flags } from '../src/args.js';
import type { ScriptFlags } from '../src/script.js';

const dir = mkdtempSync(join(tmpdir(), 'sledge-script-flags-'));
const a = join(dir, 'a.sql');
const b = join(dir, 'b.sql');
writeFileSync(a, '\\set aid random(1, 10)\nSELECT :aid;\n');
writeFileSync(b, 'SELECT 1;\n');

const body = (f: Flags & ScriptFlags) => jobBody('run', f as Flags);
const error = (f: Flags & ScriptFlags): SledgeError => {
  try {
    body(f);
  } catch (x) {
    return x as SledgeError;
  }
  throw new Error('no error');
};

describe('script workload flags', () => {
  it('-f FILE@W and --builtin NAME@W map onto script.scripts (file read, its base name the script name)', () => {
    const j = body({ workload: 'script', script: [`${a}@5`, b], builtin: ['tpcb-like@1'], vus: '4', duration: '2', rampup: '0.5', scale: '3', workers: '2' });
    expect(j['workload']).toBe('script');
    expect(j['tprocc']).toBeUndefined();
    expect(j['script']).toEqual({
      vus: 4,
      duration: 2,
      rampup: 0.5,
      scale: 3,
      workers: 2,
      scripts: [
        { name: 'a.sql', text: '\\set aid random(1, 10)\nSELECT :aid;\n', weight: 5 },
        { name: 'b.sql', text: 'SELECT 1;\n' },
        { builtin: 'tpcb-like', weight: 1 },
      ],
    });
    expect(FIELD_FLAGS['script.vus']).toBe('--vus');
    expect(FIELD_FLAGS['script.scripts']).toBe('--script');
  });

  it("--threads N is script.threads (the native loop's threads, pgbench's -j), and a script workload flag only", () => {
    const j = body({ workload: 'script', builtin: ['tpcb-like'], vus: '8', threads: '2' } as Flags & ScriptFlags);
    expect(j['script']).toEqual({ vus: 8, threads: 2, scripts: [{ builtin: 'tpcb-like' }] });
    expect(FIELD_FLAGS['script.threads']).toBe('--threads');
    expect(error({ threads: '2' } as Flags & ScriptFlags).message).toBe('--threads is a script workload flag: add --workload script or remove it');
  });

  it('--steps and --arrival-rate go to script.steps and script.arrival as for TPROC-C; server fields name the flags', () => {
    const j = body({ workload: 'script', builtin: ['tpcb-like'], steps: '0:0.5:1,0.5:0.5:2', duration: '1' } as Flags & ScriptFlags);
    expect((j['script'] as Record<string, unknown>)['steps']).toEqual([{ startAfterMin: 0, durationMin: 0.5, vus: 1 }, { startAfterMin: 0.5, durationMin: 0.5, vus: 2 }]);
    const a = body({ workload: 'script', builtin: ['select-only'], 'arrival-rate': '50', 'max-sessions': '4' } as Flags & ScriptFlags);
    expect((a['script'] as Record<string, unknown>)['arrival']).toEqual({ rate: 50, maxSessions: 4 });
    expect(a['tprocc']).toBeUndefined();
    expect(FIELD_FLAGS['script.arrival.maxSessions']).toBe('--max-sessions');
    expect(FIELD_FLAGS['script.steps']).toBe('--steps');
    expect(error({ workload: 'tproch', steps: '0:1:1' } as Flags & ScriptFlags).message).toBe('--steps is a TPROC-C and script workload flag: add --workload tprocc (or script) or remove it');
  });

  it('refuses a bad weight, an unreadable file, script flags on another workload and TPROC-C flags on scripts', () => {
    expect(error({ workload: 'script', builtin: ['tpcb-like@x'] }).message).toBe('--builtin tpcb-like@x: the weight after @ must be a whole number');
    expect(error({ workload: 'script', script: [join(dir, 'missing.sql')] }).field).toBe('--script');
    expect(error({ workload: 'tproch', script: [a] }).message).toBe('--script is a script workload flag: add --workload script or remove it');
    expect(error({ builtin: ['select-only'] }).field).toBe('--builtin');
    expect(error({ workload: 'script', warehouses: '4' }).message).toBe('--warehouses is a TPROC-C flag: add --workload tprocc or remove it');
    expect(error({ workload: 'script', streams: '2' }).message).toBe('--streams is a TPROC-H flag: add --workload tproch or remove it');
  });
});
