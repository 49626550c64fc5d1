import WebSocket from 'ws';
import type { AgentFrame, CpuSample, SystemInfo } from '@sledge/protocol';

/** The server's agent endpoint. */
export const AGENT_PATH = '/api/v1/agent';
/** AgentFrame hello labels are 1..100 characters. */
export const LABEL_MAX = 100;

export interface SampleSource {
  prime(): Promise<void>;
  sample(): Promise<CpuSample>;
}

export interface AgentClientOptions {
  /** ws://host:8080 (http:// works too); a URL without a path gets /api/v1/agent. */
  server: string;
  label: string;
  system: SystemInfo;
  collector: SampleSource;
  intervalMs: number;
  /** API token, sent as Authorization: Bearer. */
  token?: string;
  log: (line: string) => void;
  /** Reconnect delays: initialMs doubling up to maxMs, ±20% jitter. */
  backoff?: { initialMs: number; maxMs: number };
}

/** The WebSocket URL of the agent endpoint for a --server value. */
export function agentUrl(server: string): string {
  const u = new URL(server);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:') throw new Error(`--server must be a ws://, wss://, http:// or https:// URL, got ${server}`);
  if (u.pathname === '' || u.pathname === '/') u.pathname = AGENT_PATH;
  return u.toString();
}

/** Delay before reconnect attempt `attempt` (0-based): initial * 2^attempt, capped, with ±20% jitter. */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: () => number = Math.random): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/**
 * Streams CPU samples to a Sledge server: on every (re)connect it sends
 * {t:'hello', label, system}, then {t:'cpu', sample} every interval. The
 * collector keeps sampling while disconnected (so each sample covers one
 * interval); samples taken with no open socket are dropped. A lost or
 * refused connection is retried with backoff, forever, until stop().
 */
export class AgentClient {
  private ws: WebSocket | undefined;
  private tick: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private attempt = 0;
  private stopped = true;
  private sampling = false;
  private readonly url: string;
  private readonly label: string;

  constructor(private readonly o: AgentClientOptions) {
    this.url = agentUrl(o.server);
    const label = o.label.trim() || o.system.hostname;
    this.label = label.length > LABEL_MAX ? label.slice(0, LABEL_MAX) : label;
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await this.o.collector.prime();
    this.tick = setInterval(() => void this.onTick(), this.o.intervalMs);
    this.connect();
  }

  private connect(): void {
    if (this.stopped) return;
    const headers: Record<string, string> = this.o.token ? { authorization: `Bearer ${this.o.token}` } : {};
    const ws = new WebSocket(this.url, { headers, handshakeTimeout: 10_000 });
    this.ws = ws;
    let closed = false;
    ws.on('open', () => {
      this.attempt = 0;
      this.o.log(`connected to ${this.url} as "${this.label}"`);
      this.send({ t: 'hello', label: this.label, system: this.o.system });
    });
    ws.on('message', (data) => {
      // The server answers only to say a frame was refused.
      try {
        const m = JSON.parse(String(data)) as { t?: string; error?: { message?: string } };
        if (m.t === 'error') this.o.log(`server refused a frame: ${m.error?.message ?? String(data)}`);
      } catch {
        // not JSON: nothing the agent acts on
      }
    });
    ws.on('error', (e) => this.o.log(`connection to ${this.url} failed: ${e.message}`));
    ws.on('close', () => {
      if (closed) return;
      closed = true;
      if (this.ws === ws) this.ws = undefined;
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    const delay = backoffDelay(this.attempt++, this.o.backoff?.initialMs ?? 1000, this.o.backoff?.maxMs ?? 30_000);
    this.o.log(`disconnected; reconnecting in ${(delay / 1000).toFixed(1)} s`);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect();
    }, delay);
  }

  private send(f: AgentFrame): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(f));
  }

  private async onTick(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const sample = await this.o.collector.sample();
      this.send({ t: 'cpu', sample });
    } catch (e) {
      this.o.log(`sampling failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      this.sampling = false;
    }
  }

  /** Stop sampling and close the connection; no reconnect follows. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.tick) clearInterval(this.tick);
    if (this.retry) clearTimeout(this.retry);
    this.tick = undefined;
    this.retry = undefined;
    const ws = this.ws;
    this.ws = undefined;
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 2000);
      ws.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.close();
    });
  }
}
