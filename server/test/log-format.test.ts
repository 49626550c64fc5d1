import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../dist/app.js';
import { formatLogLine, prettySink } from '../dist/plugins/log-format.js';

const capture = () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, stream };
};

describe('server log', () => {
  it('at info, requests do not bury the rest; at debug each request is one line with status and time', async () => {
    for (const level of ['info', 'debug']) {
      const { lines, stream } = capture();
      const s = await buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-log-')), logger: { level, stream }, uiDir: null });
      for (let i = 0; i < 5; i++) await s.app.inject({ method: 'GET', url: '/api/v1/jobs' });
      s.app.log.info('a job message');
      await s.app.close();
      const requests = lines.filter((l) => l.includes('/api/v1/jobs'));
      expect(lines.some((l) => l.includes('a job message'))).toBe(true);
      if (level === 'info') expect(requests).toHaveLength(0);
      else {
        expect(requests).toHaveLength(5);
        expect(JSON.parse(requests[0]!)).toMatchObject({ msg: 'request completed', status: 200, req: { method: 'GET', url: '/api/v1/jobs' } });
      }
    }
  });

  it('formats a JSON record as one readable line, errors with their stack', () => {
    const line = formatLogLine(JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 1, 12, 0, 0), pid: 1, hostname: 'h', msg: 'job 1 queued', jobs: 2 }));
    expect(line).toMatch(/^\d\d:\d\d:\d\d INFO {2}job 1 queued jobs=2\n$/);
    const err = formatLogLine(JSON.stringify({ level: 50, time: 0, msg: 'boom', err: { type: 'Error', message: 'x', stack: 'Error: x\n    at f (a.js:1:1)' } }));
    expect(err).toContain('ERROR boom\n    Error: x');
    expect(formatLogLine('not json')).toBe('not json\n');
  });

  it('the pretty sink writes human lines from a real server logger', async () => {
    let out = '';
    const s = await buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'sledge-log-')), logger: { level: 'info', stream: prettySink({ write: (x: string) => (out += x) }) }, uiDir: null });
    s.app.log.warn('disk is filling');
    await s.app.close();
    expect(out).toMatch(/\d\d:\d\d:\d\d WARN {2}disk is filling/);
    expect(out).not.toContain('{"level"');
  });
});
