import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJobCreate, SledgeError } from '@sledge/protocol';
import { jobBody } from '../src/args.js';

const dir = mkdtempSync(join(tmpdir(), 'sledge-cli-pool-'));
const file = join(dir, 'mariacpool.xml');
writeFileSync(
  file,
  `<connpool><connections><c1><maria_host>127.0.0.1</maria_host><maria_port>3306</maria_port><maria_user>root</maria_user><maria_pass>pw1</maria_pass><maria_dbase>tpcc1</maria_dbase></c1>
<c2><maria_host>127.0.0.1</maria_host><maria_user>root</maria_user><maria_dbase>tpcc2</maria_dbase></c2></connections>
<sprocs><neworder><connections>c1 c2</connections><policy>round_robin</policy></neworder><payment><connections>c2</connections><policy>first_named</policy></payment></sprocs></connpool>`,
);

describe('--connect-pool', () => {
  it('reads a HammerDB connect pool file into target.pool, which the server accepts', () => {
    const b = jobBody('run', { db: 'mariadb', 'connect-pool': file, vus: '2' });
    const t = b['target'] as Record<string, unknown>;
    expect(t['pool']).toEqual({
      connections: [
        { name: 'c1', host: '127.0.0.1', port: 3306, user: 'root', password: 'pw1', database: 'tpcc1' },
        { name: 'c2', host: '127.0.0.1', user: 'root', database: 'tpcc2' },
      ],
      ops: { neworder: { connections: ['c1', 'c2'], policy: 'round_robin' }, payment: { connections: ['c2'], policy: 'first_named' } },
    });
    expect(parseJobCreate(b, 1).target.pool?.connections.length).toBe(2);
  });
  it('a missing or malformed file is a typed error naming --connect-pool', () => {
    for (const f of [join(dir, 'none.xml'), (writeFileSync(join(dir, 'bad.xml'), '<connpool>'), join(dir, 'bad.xml'))]) {
      try {
        jobBody('run', { db: 'postgresql', 'connect-pool': f });
        throw new Error('expected an error');
      } catch (e) {
        expect(e).toBeInstanceOf(SledgeError);
        expect((e as SledgeError).field).toBe('--connect-pool');
      }
    }
  });
});
