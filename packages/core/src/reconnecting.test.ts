import { describe, expect, it } from 'vitest';
import type { Driver } from './driver.js';
import { Reconnecting } from './reconnecting.js';

const driver = {
  classifyError: (e: unknown) => ({ kind: (e as { lost?: boolean }).lost ? 'connection' : 'other', message: String((e as Error).message) }),
} as unknown as Pick<Driver, 'classifyError'>;

/** A session that notes how many calls are inside it at once (a connection serves one query at a time). */
function session(name: string) {
  const s = {
    name,
    inside: 0,
    most: 0,
    order: [] as string[],
    closed: false,
    async call(tag: string, ms: number, fail?: Error): Promise<string> {
      s.inside++;
      s.most = Math.max(s.most, s.inside);
      s.order.push(`${tag}>`);
      await new Promise((r) => setTimeout(r, ms));
      s.order.push(`<${tag}`);
      s.inside--;
      if (fail) throw fail;
      return `${tag}@${name}`;
    },
    async close() {
      s.closed = true;
    },
  };
  return s;
}

describe('Reconnecting: one call at a time on the session', () => {
  it('calls made together run one after the other, in order (issue 31 item 9)', async () => {
    const s = session('a');
    const c = new Reconnecting(s, async () => session('b'), driver, () => undefined);
    const results = await Promise.all([c.use((x) => x.call('step-start', 30)), c.use((x) => x.call('tcount', 5)), c.use((x) => x.call('window-start', 10))]);
    expect(results).toEqual(['step-start@a', 'tcount@a', 'window-start@a']);
    expect(s.most).toBe(1);
    expect(s.order).toEqual(['step-start>', '<step-start', 'tcount>', '<tcount', 'window-start>', '<window-start']);
  });

  it('a failed call does not stop the next one', async () => {
    const s = session('a');
    const c = new Reconnecting(s, async () => session('b'), driver, () => undefined);
    const first = c.use((x) => x.call('bad', 5, new Error('syntax error')));
    const second = c.use((x) => x.call('good', 5));
    await expect(first).rejects.toThrow('syntax error');
    await expect(second).resolves.toBe('good@a');
    expect(s.most).toBe(1);
  });

  it('a call that meets a lost connection reopens the session; the calls queued behind it run on the new one', async () => {
    const a = session('a');
    const b = session('b');
    const logs: string[] = [];
    const c = new Reconnecting(a, async () => b, driver, (l) => logs.push(l));
    let failed = false;
    const lost = c.use((x) => (x === a && !failed ? ((failed = true), x.call('lost', 5, Object.assign(new Error('terminated'), { lost: true }))) : x.call('again', 5)));
    const next = c.use((x) => x.call('next', 5));
    expect(await lost).toBe('again@b');
    expect(await next).toBe('next@b');
    expect(a.closed).toBe(true);
    expect(c.reconnects).toBe(1);
    expect(b.most).toBe(1);
    expect(logs.join('\n')).toMatch(/Monitor: connection lost \(terminated\), reconnecting/);
  });
});

describe('Reconnecting: once closed, it stays closed', () => {
  const lostError = () => Object.assign(new Error('terminated'), { lost: true });

  it('a call cut by the close fails with its own error and opens no new session', async () => {
    const a = session('a');
    let opened = 0;
    const c = new Reconnecting(a, async () => (opened++, session('b')), driver, () => undefined);
    let release!: () => void;
    const cut = c.use(() => new Promise<string>((_, rej) => (release = () => rej(lostError()))));
    await new Promise((r) => setTimeout(r, 5));
    const closing = c.close();
    release(); // the reading is cut after the close, as a stop's close cuts a monitor's query
    await expect(cut).rejects.toThrow('terminated');
    await closing;
    expect(a.closed).toBe(true);
    expect(opened).toBe(0);
    expect(c.reconnects).toBe(0);
  });

  it('a reopen waiting out its backoff stops at the close and opens nothing after it', async () => {
    const a = session('a');
    let opened = 0;
    const c = new Reconnecting(a, async () => (opened++, session('b')), driver, () => undefined);
    const lost = c.use((x) => x.call('lost', 1, lostError()));
    await new Promise((r) => setTimeout(r, 20)); // the reopen has closed `a` and sleeps its 0.5 s backoff
    expect(a.closed).toBe(true);
    await c.close();
    await expect(lost).rejects.toThrow(/closed while reconnecting/);
    await new Promise((r) => setTimeout(r, 600)); // past the 0.5 s backoff: nothing was opened after the close
    expect(opened).toBe(0);
  });

  it('a session opened by a reopen that the close overtook is closed, never handed out, before close() resolves', async () => {
    const a = session('a');
    const b = session('b');
    let letOpen!: () => void;
    const c = new Reconnecting(a, () => new Promise<typeof b>((r) => (letOpen = () => r(b))), driver, () => undefined);
    const lost = c.use((x) => x.call('lost', 1, lostError()));
    // Wait until the reopen is inside open() (after its first backoff).
    while (!letOpen) await new Promise((r) => setTimeout(r, 20));
    let closed = false;
    const closing = c.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 10));
    expect(closed).toBe(false); // still waiting for the open under way
    letOpen();
    await closing;
    expect(b.closed).toBe(true);
    await expect(lost).rejects.toThrow(/closed while reconnecting/);
    expect(c.reconnects).toBe(0);
  });
});
