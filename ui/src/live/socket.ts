import type { ClientFrame, ErrorInfo, Job, ServerFrame } from '@sledge/protocol';
import { applyFrame, fromSnapshot, mergeJob, type LiveJob } from './jobState.js';

/** The part of the browser WebSocket this client uses (a fake implements it in tests). */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
}

export type SocketFactory = (url: string) => SocketLike;
export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting';

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(h: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(h: unknown): void;
  now(): number;
}

export interface LiveSocketOptions {
  /** First reconnect delay; doubles per failed attempt up to maxDelayMs, with jitter. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Ping interval; a socket silent for 3 intervals is considered dead and replaced. */
  pingMs?: number;
  timers?: Timers;
  random?: () => number;
}

const OPEN = 1;

export interface JobView {
  state: LiveJob | null;
  error: ErrorInfo | null;
}

type JobListener = (view: JobView) => void;

interface Channel {
  view: JobView;
  listeners: Set<JobListener>;
  /** A resubscribe is in flight after a gap: ignore further gaps until it lands. */
  resyncing: boolean;
}

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
  now: () => Date.now(),
};

/** Reconnect delay for the n-th consecutive failure (0-based): exponential, capped, with jitter in [50%, 100%]. */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: () => number): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(base * (0.5 + random() / 2));
}

/**
 * The one WebSocket the UI opens. Pages watch jobs and the job list through
 * it; it keeps each watched job's state (snapshot + frames, applied in seq
 * order exactly once), reconnects with backoff after a drop, and resumes each
 * job with `since=<last applied seq>` so nothing is missed or doubled.
 */
export class LiveSocket {
  private ws: SocketLike | null = null;
  private readonly channels = new Map<string, Channel>();
  private readonly jobListListeners = new Set<(job: Job) => void>();
  private readonly stateListeners = new Set<(s: ConnectionState) => void>();
  private attempt = 0;
  private reconnectTimer: unknown = null;
  private pingTimer: unknown = null;
  private lastMessageAt = 0;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly initialDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly pingMs: number;
  connection: ConnectionState = 'idle';
  /** Number of connections opened so far (the first plus every reconnect). */
  opens = 0;

  constructor(
    private readonly url: () => string,
    private readonly factory: SocketFactory,
    opts: LiveSocketOptions = {},
  ) {
    this.timers = opts.timers ?? defaultTimers;
    this.random = opts.random ?? Math.random;
    this.initialDelayMs = opts.initialDelayMs ?? 500;
    this.maxDelayMs = opts.maxDelayMs ?? 15_000;
    this.pingMs = opts.pingMs ?? 15_000;
  }

  /** Watch a job: the listener gets the current view at once (when known) and after every change. */
  watchJob(jobId: string, listener: JobListener): () => void {
    let ch = this.channels.get(jobId);
    if (!ch) {
      ch = { view: { state: null, error: null }, listeners: new Set(), resyncing: false };
      this.channels.set(jobId, ch);
      this.sendSubscribe(jobId, ch);
    }
    ch.listeners.add(listener);
    this.ensureConnected();
    if (ch.view.state || ch.view.error) listener(ch.view);
    return () => {
      const c = this.channels.get(jobId);
      if (!c) return;
      c.listeners.delete(listener);
      if (c.listeners.size === 0) {
        this.channels.delete(jobId);
        this.send({ t: 'unsubscribe', jobId });
      }
    };
  }

  /** The current view of a watched job (null when not watched). */
  view(jobId: string): JobView | null {
    return this.channels.get(jobId)?.view ?? null;
  }

  /** Job-list changes (created, status, result) for every job. */
  watchJobList(listener: (job: Job) => void): () => void {
    const first = this.jobListListeners.size === 0;
    this.jobListListeners.add(listener);
    if (first) this.send({ t: 'jobs', on: true });
    this.ensureConnected();
    return () => {
      this.jobListListeners.delete(listener);
      if (this.jobListListeners.size === 0) this.send({ t: 'jobs', on: false });
    };
  }

  onConnection(listener: (s: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  /** Drop the current socket as if the network failed (used by tests and the "reconnect" control). */
  dropConnection(): void {
    const ws = this.ws;
    if (!ws) return;
    ws.close();
    this.closed(ws);
  }

  close(): void {
    if (this.reconnectTimer !== null) this.timers.clearTimeout(this.reconnectTimer);
    if (this.pingTimer !== null) this.timers.clearInterval(this.pingTimer);
    this.reconnectTimer = this.pingTimer = null;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = ws.onmessage = ws.onerror = ws.onopen = null;
      ws.close();
    }
    this.setConnection('idle');
  }

  private setConnection(s: ConnectionState): void {
    if (this.connection === s) return;
    this.connection = s;
    for (const l of this.stateListeners) l(s);
  }

  private ensureConnected(): void {
    if (this.ws || this.reconnectTimer !== null) return;
    this.connect();
  }

  private connect(): void {
    this.reconnectTimer = null;
    this.setConnection(this.opens === 0 ? 'connecting' : 'reconnecting');
    let ws: SocketLike;
    try {
      ws = this.factory(this.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.opens++;
      this.attempt = 0;
      this.lastMessageAt = this.timers.now();
      this.setConnection('open');
      if (this.jobListListeners.size) this.send({ t: 'jobs', on: true });
      for (const [jobId, ch] of this.channels) this.sendSubscribe(jobId, ch);
      this.startPing();
    };
    ws.onmessage = (ev) => {
      this.lastMessageAt = this.timers.now();
      let f: ServerFrame;
      try {
        f = JSON.parse(String(ev.data)) as ServerFrame;
      } catch {
        return;
      }
      this.handle(f);
    };
    ws.onerror = () => {
      // A close event follows; reconnecting happens there.
    };
    ws.onclose = () => this.closed(ws);
  }

  /** The socket is gone (closed by either side, or declared dead): reconnect with backoff. */
  private closed(ws: SocketLike): void {
    if (this.ws !== ws) return;
    this.ws = null;
    ws.onclose = ws.onmessage = ws.onerror = ws.onopen = null;
    if (this.pingTimer !== null) this.timers.clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer !== null) return;
    this.setConnection('reconnecting');
    const delay = backoffDelay(this.attempt++, this.initialDelayMs, this.maxDelayMs, this.random);
    this.reconnectTimer = this.timers.setTimeout(() => this.connect(), delay);
  }

  private startPing(): void {
    if (this.pingTimer !== null) this.timers.clearInterval(this.pingTimer);
    this.pingTimer = this.timers.setInterval(() => {
      if (this.timers.now() - this.lastMessageAt > this.pingMs * 3) {
        // Silent for too long: the connection is dead even if the browser has not noticed.
        const ws = this.ws;
        if (ws) {
          ws.close();
          this.closed(ws);
        }
        return;
      }
      this.send({ t: 'ping' });
    }, this.pingMs);
  }

  private send(f: ClientFrame): void {
    if (this.ws && this.ws.readyState === OPEN) this.ws.send(JSON.stringify(f));
  }

  private sendSubscribe(jobId: string, ch: Channel): void {
    const since = ch.view.state?.seq;
    this.send(since === undefined ? { t: 'subscribe', jobId } : { t: 'subscribe', jobId, since });
  }

  private notify(ch: Channel): void {
    for (const l of [...ch.listeners]) l(ch.view);
  }

  private handle(f: ServerFrame): void {
    switch (f.t) {
      case 'pong':
        return;
      case 'job': {
        for (const l of [...this.jobListListeners]) l(f.job);
        const ch = this.channels.get(f.job.id);
        if (ch?.view.state) {
          ch.view = { state: mergeJob(ch.view.state, f.job), error: null };
          this.notify(ch);
        }
        return;
      }
      case 'error': {
        const ch = f.jobId ? this.channels.get(f.jobId) : undefined;
        if (ch) {
          ch.view = { state: ch.view.state, error: f.error };
          this.notify(ch);
        }
        return;
      }
      case 'snapshot': {
        const ch = this.channels.get(f.jobId);
        if (!ch) return;
        ch.resyncing = false;
        ch.view = { state: fromSnapshot(f.snapshot), error: null };
        this.notify(ch);
        return;
      }
      default: {
        const ch = this.channels.get(f.jobId);
        if (!ch || !ch.view.state) return;
        const r = applyFrame(ch.view.state, f);
        if (r.kind === 'gap') {
          if (!ch.resyncing) {
            ch.resyncing = true;
            this.send({ t: 'unsubscribe', jobId: f.jobId });
            this.sendSubscribe(f.jobId, ch);
          }
          return;
        }
        if (r.kind === 'duplicate') return;
        ch.resyncing = false;
        ch.view = { state: r.state, error: null };
        this.notify(ch);
      }
    }
  }
}
