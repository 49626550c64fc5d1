import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadMyVuLoop, loadPgVuLoop } from '@sledge/worker-native';
import { loadDriver } from '../dist/engine/registry.js';
import { vuLoopCapability } from '../dist/workloads/tprocc/vu-loop-capability.js';

/** What `sledge capabilities` says per engine about its VU loop, with the real drivers (no database needed). */
const missing = (file: string) => join(tmpdir(), 'no-such-dir', file);

describe('vuLoopCapability', () => {
  it('MariaDB without its addon: the JavaScript loop, the package to install and what it costs', async () => {
    const l = vuLoopCapability('mariadb', await loadDriver('mariadb'), 'auto', missing('sledge_myvu.node'));
    expect(l).toMatchObject({ active: 'javascript', name: 'the native MariaDB C connector loop' });
    expect(l?.reason).toContain('libmariadb-dev');
    expect(l?.reason).toContain(missing('sledge_myvu.node'));
    expect(l?.cost).toMatch(/^mysql2 costs 2\.4-6x the native loop's client CPU per transaction/);
  });

  it('PostgreSQL without its addon: the JavaScript loop, why, and what it costs', async () => {
    const l = vuLoopCapability('postgresql', await loadDriver('postgresql'), 'auto', missing('sledge_pgvu.node'));
    expect(l).toMatchObject({ active: 'javascript', name: 'the native libpq loop' });
    expect(l?.reason).toContain(missing('sledge_pgvu.node'));
    expect(l?.cost).toMatch(/^node-postgres costs about 3\.4x the native loop's client CPU/);
  });

  it('the native loop where its addon loads here (the built one)', async () => {
    const pg = vuLoopCapability('postgresql', await loadDriver('postgresql'));
    expect(pg).toEqual(loadPgVuLoop().available ? { active: 'native', name: 'the native libpq loop' } : expect.objectContaining({ active: 'javascript' }));
    const my = vuLoopCapability('mysql', await loadDriver('mysql'));
    expect(my).toEqual(loadMyVuLoop().available ? { active: 'native', name: 'the native MariaDB C connector loop' } : expect.objectContaining({ active: 'javascript' }));
  });

  it("vuLoop 'typescript' on the server: JavaScript for every engine, with the cost", async () => {
    const l = vuLoopCapability('postgresql', await loadDriver('postgresql'), 'typescript');
    expect(l).toMatchObject({ active: 'javascript', reason: 'the server runs every VU in JavaScript (vuLoop / SLEDGE_VU_LOOP is typescript)' });
    expect(l?.cost).toBeTruthy();
  });

  it("a driver with no native loop says so and states no cost; an engine without TPROC-C's transactions has no VU loop", async () => {
    expect(vuLoopCapability('sqlite', await loadDriver('sqlite'))).toEqual({ active: 'javascript', reason: 'the SQLite driver has no native VU loop' });
    expect(vuLoopCapability('duckdb', await loadDriver('duckdb'))).toBeUndefined();
  });
});
