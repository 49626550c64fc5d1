import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { ArgsError, parseArgs } from './args.js';

describe('agent command line', () => {
  it('reads server, label, interval and token (flag or SLEDGE_TOKEN)', () => {
    expect(parseArgs(['--server', 'ws://h:8080', '--label', 'db1', '--interval-ms', '500', '--token', 't'], {})).toEqual({
      server: 'ws://h:8080', label: 'db1', intervalMs: 500, token: 't', once: false, json: false, help: false, withParent: false,
    });
    expect(parseArgs(['--server=ws://h:8080'], { SLEDGE_TOKEN: 'env' })).toMatchObject({ server: 'ws://h:8080', label: os.hostname(), intervalMs: 1000, token: 'env' });
    expect(parseArgs(['--once', '--json'], {})).toMatchObject({ once: true, json: true });
  });

  it('refuses what it cannot use', () => {
    expect(() => parseArgs([], {})).toThrow(ArgsError);
    expect(() => parseArgs(['--server'], {})).toThrow(/needs a value/);
    expect(() => parseArgs(['--server', 'ws://h', '--interval-ms', '5'], {})).toThrow(/100 to 60000/);
    expect(() => parseArgs(['--server', 'ws://h', '--json'], {})).toThrow(/--once/);
    expect(() => parseArgs(['--bogus'], {})).toThrow(/unknown argument/);
  });
});
