import { describe, expect, it } from 'vitest';
import { TARGET_SCHEMAS } from '../targets.js';
import { targetValuesOnSwitch, workloadTargetDefaults } from './index.js';

const schemaDefaults = (engine: 'sqlite' | 'postgresql'): Record<string, unknown> => {
  const props = (TARGET_SCHEMAS[engine] as unknown as { properties: Record<string, { default?: unknown }> }).properties;
  return Object.fromEntries(Object.entries(props).map(([k, s]) => [k, s.default]));
};

describe("a workload's target defaults", () => {
  it('come from the workload definition: TPROC-H has its own SQLite file and PostgreSQL names, TPROC-C the schema defaults', () => {
    expect(workloadTargetDefaults('tproch', 'sqlite')).toEqual({ file: 'tproch.sqlite' });
    expect(workloadTargetDefaults('tprocc', 'sqlite')).toBeUndefined();
    expect(schemaDefaults('sqlite')['file']).toBe('tprocc.sqlite');
  });

  it("switching workload moves a file still at the old workload's default; a file the user typed stays; an unset one stays unset", () => {
    const d = schemaDefaults('sqlite');
    expect(targetValuesOnSwitch('tprocc', 'tproch', 'sqlite', { file: 'tprocc.sqlite' }, d)['file']).toBe('tproch.sqlite');
    expect(targetValuesOnSwitch('tproch', 'tprocc', 'sqlite', { file: 'tproch.sqlite' }, d)['file']).toBe('tprocc.sqlite');
    expect(targetValuesOnSwitch('tprocc', 'tproch', 'sqlite', { file: 'mine.sqlite' }, d)['file']).toBe('mine.sqlite');
    // A user on TPROC-C who typed TPROC-H's file name meant it: it stays.
    expect(targetValuesOnSwitch('tproch', 'tprocc', 'sqlite', { file: 'tprocc.sqlite' }, d)['file']).toBe('tprocc.sqlite');
    expect(targetValuesOnSwitch('tprocc', 'tproch', 'sqlite', { busyTimeoutMs: '10' }, d)).toEqual({ busyTimeoutMs: '10' });
  });

  it('PostgreSQL: database, user and password move together; a chosen user keeps its password', () => {
    const d = schemaDefaults('postgresql');
    expect(targetValuesOnSwitch('tprocc', 'tproch', 'postgresql', { database: 'tpcc', user: 'tpcc', password: 'tpcc' }, d)).toEqual({ database: 'tpch', user: 'tpch', password: 'tpch' });
    expect(targetValuesOnSwitch('tproch', 'tprocc', 'postgresql', { database: 'tpch', user: 'tpch', password: 'tpch' }, d)).toEqual({ database: 'tpcc', user: 'tpcc', password: 'tpcc' });
    expect(targetValuesOnSwitch('tprocc', 'tproch', 'postgresql', { database: 'tpcc', user: 'me', password: 'tpcc' }, d)).toEqual({ database: 'tpch', user: 'me', password: 'tpcc' });
    expect(targetValuesOnSwitch('tprocc', 'tproch', 'postgresql', { user: 'tpcc', password: 's3cret' }, d)).toEqual({ user: 'tpch', password: 's3cret' });
  });
});
