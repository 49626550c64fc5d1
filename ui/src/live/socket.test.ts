import { describe, expect, it } from 'vitest';
import type { ClientFrame, ServerFrame } from '@sledge/protocol';
import { backoffDelay, LiveSocket, type SocketLike, type Timers } from './socket.js';
import { snapshot } from './fixtures.js';

const JID = 'ABCDEF0123456789ABCDEF01';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: ClientFrame[] = [];
  onopen: SocketLike['onopen'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  onmessage: SocketLike['onmessage'] = null;
  send(data: string) {
    this.sent.push(JSON.parse(data) as ClientFrame);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({} as Event);
  }
  receive(f: ServerFrame) {
    this.onmessage?.({ data: JSON.stringify(f) } as MessageEvent);
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({} as CloseEvent);
  }
}

/** Manual clock: timers fire only when the test advances time. */
class FakeTimers implements Timers {
  t = 0;
  private seq = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void; every?: number }>();
  setTimeout(fn: () => void, ms: number) {
    const id = ++this.seq;
    this.pending.set(id, { at: this.t + ms, fn });
    return id;
  }
  clearTimeout(h: unknown) {
    this.pending.delete(h as number);
  }
  setInterval(fn: () => void, ms: number) {
    const id = ++this.seq;
    this.pending.set(id, { at: this.t + ms, fn, every: ms });
    return id;
  }
  clearInterval(h: unknown) {
    this.pending.delete(h as number);
  }
  now() {
    return this.t;
  }
  /** Delays of pending one-shot timers. */
  delays() {
    return [...this.pending.values()].filter((p) => !p.every).map((p) => p.at - this.t);
  }
  advance(ms: number) {
    const end = this.t + ms;
    for (;;) {
      const next = [...this.pending.entries()].filter(([, p]) => p.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!next) break;
      const [id, p] = next;
      this.t = p.at;
      if (p.every) p.at += p.every;
      else this.pending.delete(id);
      p.fn();
    }
    this.t = end;
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const timers = new FakeTimers();
  const live = new LiveSocket(
    () => 'ws://x/api/v1/ws',
    () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    { timers, random: () => 1, initialDelayMs: 500, maxDelayMs: 8000, pingMs: 10_000 },
  );
  return { live, sockets, timers };
}

describe('LiveSocket', () => {
  it('subscribes once open and builds the job state from the snapshot and frames', () => {
    const { live, sockets } = setup();
    const views: (number | undefined)[] = [];
    live.watchJob(JID, (v) => views.push(v.state?.seq));
    expect(sockets).toHaveLength(1);
    sockets[0]!.open();
    expect(sockets[0]!.sent).toEqual([{ t: 'subscribe', jobId: JID }]);
    sockets[0]!.receive({ t: 'snapshot', jobId: JID, snapshot: snapshot({ seq: 10 }) });
    sockets[0]!.receive({ t: 'vus', jobId: JID, seq: 11, vus: [{ vu: 2, state: 'running', commits: 5, rollbacks: 0, errors: 0 }] });
    expect(views).toEqual([10, 11]);
    expect(live.view(JID)?.state?.vus[0]?.commits).toBe(5);
  });

  it('reconnects with exponential backoff and resumes from the last applied seq', () => {
    const { live, sockets, timers } = setup();
    live.watchJob(JID, () => undefined);
    sockets[0]!.open();
    sockets[0]!.receive({ t: 'snapshot', jobId: JID, snapshot: snapshot({ seq: 10 }) });
    sockets[0]!.receive({ t: 'tcount', jobId: JID, seq: 11, engine: [{ ts: 2000, tpm: 1, nopm: 1 }], client: [] });

    sockets[0]!.drop();
    expect(live.connection).toBe('reconnecting');
    expect(timers.delays()).toEqual([500]);
    timers.advance(500);
    expect(sockets).toHaveLength(2);
    // The second attempt fails too: the delay doubles.
    sockets[1]!.drop();
    expect(timers.delays()).toEqual([1000]);
    timers.advance(1000);
    sockets[2]!.open();
    expect(live.connection).toBe('open');
    expect(sockets[2]!.sent).toEqual([{ t: 'subscribe', jobId: JID, since: 11 }]);

    // The server replays from 12; an overlapping replay of 11 is ignored, no point is doubled.
    sockets[2]!.receive({ t: 'tcount', jobId: JID, seq: 11, engine: [{ ts: 2000, tpm: 1, nopm: 1 }], client: [] });
    sockets[2]!.receive({ t: 'tcount', jobId: JID, seq: 12, engine: [{ ts: 3000, tpm: 2, nopm: 2 }], client: [] });
    expect(live.view(JID)?.state?.engine.map((e) => e.ts)).toEqual([1000, 2000, 3000]);
    expect(live.view(JID)?.state?.seq).toBe(12);

    // A successful open resets the backoff.
    sockets[2]!.drop();
    expect(timers.delays()).toEqual([500]);
  });

  it('resubscribes from the last seq when a frame is missing, once', () => {
    const { live, sockets } = setup();
    live.watchJob(JID, () => undefined);
    const s = sockets[0]!;
    s.open();
    s.receive({ t: 'snapshot', jobId: JID, snapshot: snapshot({ seq: 10 }) });
    s.sent = [];
    s.receive({ t: 'vus', jobId: JID, seq: 12, vus: [] });
    s.receive({ t: 'vus', jobId: JID, seq: 13, vus: [] });
    expect(s.sent).toEqual([
      { t: 'unsubscribe', jobId: JID },
      { t: 'subscribe', jobId: JID, since: 10 },
    ]);
    expect(live.view(JID)?.state?.seq).toBe(10);
    s.receive({ t: 'vus', jobId: JID, seq: 11, vus: [] });
    expect(live.view(JID)?.state?.seq).toBe(11);
  });

  it('replaces a silent connection after three ping intervals', () => {
    const { live, sockets, timers } = setup();
    live.watchJob(JID, () => undefined);
    sockets[0]!.open();
    timers.advance(10_000);
    expect(sockets[0]!.sent.at(-1)).toEqual({ t: 'ping' });
    timers.advance(30_000);
    expect(live.connection).toBe('reconnecting');
    timers.advance(500);
    expect(sockets).toHaveLength(2);
  });

  it('shares one subscription between watchers and unsubscribes after the last', () => {
    const { live, sockets } = setup();
    const a = live.watchJob(JID, () => undefined);
    sockets[0]!.open();
    sockets[0]!.receive({ t: 'snapshot', jobId: JID, snapshot: snapshot({ seq: 3 }) });
    let seen: number | undefined;
    const b = live.watchJob(JID, (v) => (seen = v.state?.seq));
    expect(seen).toBe(3);
    a();
    b();
    expect(sockets).toHaveLength(1);
    expect(sockets[0]!.sent).toEqual([{ t: 'subscribe', jobId: JID }, { t: 'unsubscribe', jobId: JID }]);
  });

  it('delivers job-list updates and turns the feed on after a reconnect', () => {
    const { live, sockets, timers } = setup();
    const ids: string[] = [];
    live.watchJobList((j) => ids.push(j.id));
    sockets[0]!.open();
    expect(sockets[0]!.sent).toEqual([{ t: 'jobs', on: true }]);
    sockets[0]!.receive({ t: 'job', job: snapshot().job });
    expect(ids).toEqual([JID]);
    sockets[0]!.drop();
    timers.advance(500);
    sockets[1]!.open();
    expect(sockets[1]!.sent).toEqual([{ t: 'jobs', on: true }]);
  });
});

describe('backoffDelay', () => {
  it('doubles up to the cap with jitter between 50% and 100%', () => {
    expect(backoffDelay(0, 500, 8000, () => 1)).toBe(500);
    expect(backoffDelay(3, 500, 8000, () => 1)).toBe(4000);
    expect(backoffDelay(10, 500, 8000, () => 1)).toBe(8000);
    expect(backoffDelay(10, 500, 8000, () => 0)).toBe(4000);
  });
});
