import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { tprochContract } from '@sledge/driver-testkit';
import { sqlSet } from '@sledge/sql';
import { driver } from '../index.js';

const dir = mkdtempSync(join(tmpdir(), 'sledge-sqlite-tproch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

tprochContract({
  name: 'sqlite',
  driver,
  target: { engine: 'sqlite', file: join(dir, 'tpch.sqlite'), busyTimeoutMs: 5000, synchronous: 'normal' },
  queries: sqlSet('sqlite', 'tproch').statements('queries.sql'),
  // A recursive count to a billion: minutes of work for SQLite.
  slowQuery: 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000000000) SELECT count(*) FROM r',
});

// The small hand-made data set too (tproch-fixture.ts): fast, and its RF2 deletes RF1's own orders.
tprochContract({
  name: 'sqlite, hand-made fixture',
  driver,
  target: { engine: 'sqlite', file: join(dir, 'tpch-fixture.sqlite'), busyTimeoutMs: 5000, synchronous: 'normal' },
  queries: sqlSet('sqlite', 'tproch').statements('queries.sql'),
  slowQuery: 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 1000000000) SELECT count(*) FROM r',
  data: 'fixture',
});
