import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp, type SledgeApp } from './helpers.js';

/**
 * POST /api/v1/pools/import reads a HammerDB connect pool file in one linear
 * pass (protocol run/xml-reader.ts): a file as large as the route takes does
 * not hold the event loop (measured with perf_hooks monitorEventLoopDelay
 * over real HTTP while /api/v1/health is polled), and a malformed one is a
 * typed 400 naming the line and column, never a 500.
 */

/** The route's limit: the xml string may hold 1,000,000 characters (the JSON body then is just under Fastify's 1 MiB bodyLimit). */
const MAX_XML = 1_000_000;

/** A real pool (3 connections, sprocs) followed by `pad` (elements Sledge ignores) up to `size` characters. */
function poolFile(size: number, pad: (i: number) => string): string {
  const conns = [1, 2, 3].map((n) => `<c${n}><pg_host>db${n}</pg_host><pg_port>5432</pg_port><pg_user>tpcc${n}</pg_user><pg_pass>pw${n}</pg_pass><pg_dbase>tpcc${n}</pg_dbase></c${n}>`).join('\n');
  const head = `<?xml version="1.0"?>\n<connpool>\n<connections>\n${conns}\n</connections>\n<sprocs><neworder><connections>c1 c2 c3</connections><policy>round_robin</policy></neworder></sprocs>\n<notes>\n`;
  const tail = '\n</notes>\n</connpool>\n';
  const parts: string[] = [head];
  let len = head.length + tail.length;
  for (let i = 0; ; i++) {
    const p = pad(i);
    if (len + p.length > size) break;
    parts.push(p);
    len += p.length;
  }
  parts.push(' '.repeat(size - len), tail);
  return parts.join('');
}

describe('connect pool XML import: linear, bounded, typed', () => {
  let s: SledgeApp & { dataDir: string };
  let base: string;
  beforeAll(async () => {
    s = await makeApp();
    await s.app.listen({ host: '127.0.0.1', port: 0 });
    const addr = s.app.server.address() as { port: number };
    base = `http://127.0.0.1:${addr.port}`;
  });
  afterAll(async () => {
    await s.app.close();
  });

  /** Import `xml` over HTTP while polling /api/v1/health; the longest event-loop block meanwhile. */
  async function importWhilePolling(xml: string) {
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    let done = false;
    const imported = fetch(`${base}/api/v1/pools/import`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ xml }) }).then(async (r) => {
      const body = (await r.json()) as Record<string, unknown>;
      done = true;
      return { status: r.status, body };
    });
    const health: { status: number; whileImporting: boolean }[] = [];
    while (!done) {
      const r = await fetch(`${base}/api/v1/health`);
      await r.json();
      health.push({ status: r.status, whileImporting: !done });
    }
    const res = await imported;
    h.disable();
    return { res, health, maxBlockMs: h.max / 1e6 };
  }

  it(`a pool file of ${MAX_XML} characters is read without blocking the server: /api/v1/health answers while the import is in flight`, async () => {
    // 64 KiB of dense tags, one a line, first (the quadratic reader held the loop for seconds on this), then files as large as the route takes.
    const dense = poolFile(64 * 1024, () => '<n/>\n');
    const large = poolFile(MAX_XML, (i) => `<note n${i % 10}='x'>kept in the file, ignored by Sledge &amp; HammerDB ${i}</note>\n`);
    const huge = poolFile(MAX_XML, () => '<n/>');
    expect([large.length, huge.length]).toEqual([MAX_XML, MAX_XML]);
    for (const [xml, status] of [[dense, 200], [large, 200], [huge, 400]] as const) {
      const { res, health, maxBlockMs } = await importWhilePolling(xml);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(status);
      if (status === 200) expect(res.body).toMatchObject({ engine: 'postgresql', pool: { connections: [{ name: 'c1', host: 'db1', password: '********' }, { name: 'c2' }, { name: 'c3' }] } });
      // Bounded: a file of more elements than any pool has is refused, not held in memory.
      else expect(res.body).toMatchObject({ error: { code: 'SLEDGE_E_VALIDATION', field: 'xml', message: expect.stringMatching(/^connect pool XML: more than 50000 elements \(line \d+, column \d+\)$/) } });
      console.log(`pool import of ${xml.length} chars: ${res.status}, ${health.length} health answers (${health.filter((x) => x.whileImporting).length} while importing), longest event-loop block ${maxBlockMs.toFixed(0)} ms`);
      expect(health.length).toBeGreaterThan(0);
      expect(health.every((x) => x.status === 200)).toBe(true);
      // (A 1 MiB body arrives in many reads: health requests are answered between them and during the parse.)
      if (xml.length === MAX_XML) expect(health.some((x) => x.whileImporting)).toBe(true);
      // The bound: the event loop is never held a whole second (the old reader: seconds at 64 KiB, tens of minutes at 1 MiB).
      expect(maxBlockMs).toBeLessThan(1000);
    }
  });

  it('a malformed file is a typed 400 saying what and where, never a 500', async () => {
    const pool = (inner: string) => `<connpool><connections><c1>${inner}</c1></connections></connpool>`;
    const cases: [string, RegExp][] = [
      [pool('<pg_host>&#99999999;</pg_host>'), /^connect pool XML: &#99999999; is not a character reference \(&#N; or &#xH;\) \(line 1, column 37\)$/],
      [pool('<pg_host>&#x110000;</pg_host>'), /&#x110000; refers to a character XML does not allow \(line 1, column 37\)$/],
      [pool('<pg_host>&#0;</pg_host>'), /&#0; refers to a character XML does not allow/],
      [pool('<pg_pass>a&b</pg_pass>'), /"&" does not start an entity or character reference: write it as &amp; \(line 1, column 38\)$/],
      [pool('<pg_host>&ent;</pg_host>'), /&ent; is not an XML entity/],
      [`<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n${pool('<pg_host>&b;</pg_host>')}`, /declarations \(<!DOCTYPE, <!ENTITY \.\.\.\) are not accepted: remove them \(line 1, column 1\)$/],
      [`<connpool>\n<connections>\n  <c1><pg_host>h</pg_host>\n</connections></connpool>`, /^connect pool XML: <\/connections> closes <c1> \(opened at line 3, column 3\) \(line 4, column 1\)$/],
      ['<connpool><connections><c1><pg_host>h</pg_host></c1></connections>', /<connpool> is not closed: the document ends before <\/connpool> \(line 1, column 1\)$/],
      [pool(`${'<x>'.repeat(20)}${'</x>'.repeat(20)}`), /<x> is nested deeper than 16 levels/],
      [pool('<pg_port>99999999999999999999</pg_port>'), /c1\.pg_port must be a whole number/],
      [pool('<pg_host>\u0001</pg_host>'), /character U\+0001 is not allowed in XML \(line 1, column 37\)$/],
    ];
    for (const [xml, message] of cases) {
      const r = await s.app.inject({ method: 'POST', url: '/api/v1/pools/import', payload: { xml } });
      expect(r.statusCode, `${xml.slice(0, 80)} -> ${r.body}`).toBe(400);
      const error = (JSON.parse(r.body) as { error: { code: string; field: string; message: string } }).error;
      expect([error.code, error.field]).toEqual(['SLEDGE_E_VALIDATION', 'xml']);
      expect(error.message).toMatch(message);
    }
    // The stored-file route reads the same way.
    const put = await s.app.inject({ method: 'PUT', url: '/api/v1/pools/hammerdb/pg', payload: { xml: pool('<pg_host>&#99999999;</pg_host>') } });
    expect([put.statusCode, JSON.parse(put.body).error.field]).toEqual([400, 'xml']);
  });
});
