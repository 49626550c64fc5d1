import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { tprochContract } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import { driver } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'sledge-duckdb-tproch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Minutes of work for DuckDB: a count over a 10^12-row cross product, which it cannot fold away.
const slowQuery = 'SELECT count(*) FROM range(1000000) a, range(1000000) b WHERE (a.range + b.range) % 7 = 3';

// SF 0.01 from core's generator, in memory: the 22 queries with the validation parameters, EXPLAIN, cancel, timeout, RF1/RF2.
tprochContract({
  name: 'duckdb, in memory',
  driver,
  target: { engine: 'duckdb', file: ':memory:' },
  queries: sqlSet('duckdb', 'tproch').statements('queries.sql'),
  slowQuery,
});

// The same on a file in a temp dir (staged files beside it, COPY, checkpoint, the file deleted by dropSchema).
tprochContract({
  name: 'duckdb, file',
  driver,
  target: { engine: 'duckdb', file: join(dir, 'tpch.duckdb') },
  queries: sqlSet('duckdb', 'tproch').statements('queries.sql'),
  slowQuery,
});

// The small hand-made data set too: its RF2 deletes RF1's own orders.
tprochContract({
  name: 'duckdb, hand-made fixture',
  driver,
  target: { engine: 'duckdb', file: join(dir, 'tpch-fixture.duckdb') },
  queries: sqlSet('duckdb', 'tproch').statements('queries.sql'),
  slowQuery,
  data: 'fixture',
});
