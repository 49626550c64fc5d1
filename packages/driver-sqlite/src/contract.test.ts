import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driverContract } from '@sledge/driver-testkit';
import { driver } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'sledge-sqlite-contract-'));

driverContract({
  name: 'sqlite',
  driver,
  target: { engine: 'sqlite', file: join(dir, 'contract.sqlite'), busyTimeoutMs: 5000, synchronous: 'normal' },
});
