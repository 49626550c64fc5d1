import WebSocket from 'ws';
import { SledgeError, type ErrorBody, type Job, type ServerFrame } from '@sledge/protocol';
import { loopbackRequest, type Answer } from './loopback.js';

/** A thin REST + WebSocket client for a Sledge server. */
export class SledgeClient {
  /**
   * loopback: base is the in-process server of `sledge --local`, asked over node:http
   * (loopback.ts) rather than fetch; a server elsewhere is asked with fetch (redirects followed).
   */
  constructor(
    readonly base: string,
    private readonly token?: string,
    private readonly opts: { loopback?: boolean } = {},
  ) {}

  private send(url: URL, init: { method?: string; headers: Record<string, string>; body?: string }): Promise<Answer> {
    return this.opts.loopback ? loopbackRequest(url, init) : fetch(url, init);
  }

  private headers(json: boolean): Record<string, string> {
    const h: Record<string, string> = {};
    if (json) h['content-type'] = 'application/json';
    if (this.token) h['authorization'] = `Bearer ${this.token}`;
    return h;
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.fetch(path, {
      method,
      headers: this.headers(body !== undefined),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const data = text ? (JSON.parse(text) as unknown) : undefined;
    if (!res.ok) {
      const err = (data as ErrorBody | undefined)?.error;
      throw err ? SledgeError.fromInfo(err) : new SledgeError('SLEDGE_E_INTERNAL', `${method} ${path}: HTTP ${res.status}`);
    }
    return data as T;
  }

  /**
   * A HammerDB command API call (routes at the server's root: /dbset, /print?dict ...).
   * HammerDB answers errors with HTTP 200 and {"error":{"message"}}; a route
   * this server does not have (404) becomes such an error too.
   */
  async hammerdb(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    let res: Answer;
    try {
      res = await this.send(new URL(path, this.base), { method, headers: this.headers(body !== undefined), ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    } catch (e) {
      throw new SledgeError('SLEDGE_E_CONNECT', `cannot reach the Sledge server at ${this.base} (${reason(e)}): start it with "pnpm start", pass --server, or use --local`, { field: '--server' });
    }
    const text = await res.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      data = { error: { message: text } };
    }
    if (res.status === 404) return { error: { message: `${path.split('?')[0]} is not available on this Sledge server (HTTP 404)` } };
    if (res.status === 401 || res.status === 403) {
      const msg = (data as ErrorBody).error?.message;
      throw new SledgeError(res.status === 401 ? 'SLEDGE_E_UNAUTHORIZED' : 'SLEDGE_E_FORBIDDEN', `${method} ${path}: HTTP ${res.status}${msg ? `: ${msg}` : ''} (pass --token or set SLEDGE_TOKEN)`, { field: '--token' });
    }
    return data;
  }

  /** One request; an unreachable server is SLEDGE_E_CONNECT with what to do. */
  private async fetch(path: string, init: { method?: string; headers: Record<string, string>; body?: string }): Promise<Answer> {
    try {
      return await this.send(new URL(`/api/v1${path}`, this.base), init);
    } catch (e) {
      throw new SledgeError('SLEDGE_E_CONNECT', `cannot reach the Sledge server at ${this.base} (${reason(e)}): start it with "pnpm start", pass --server, or use --local`, {
        field: '--server',
      });
    }
  }

  async text(path: string): Promise<string> {
    const res = await this.fetch(path, { headers: this.headers(false) });
    const text = await res.text();
    if (!res.ok) {
      const err = (JSON.parse(text) as ErrorBody).error;
      throw SledgeError.fromInfo(err);
    }
    return text;
  }

  /** Follow a job over the WebSocket until it ends; returns the final job. */
  follow(jobId: string, onFrame: (f: ServerFrame) => void): Promise<Job> {
    return new Promise((resolve, reject) => {
      const url = new URL('/api/v1/ws', this.base);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      if (this.token) url.searchParams.set('token', this.token);
      let lastSeq: number | undefined;
      let done = false;
      const open = (attempt: number) => {
        const ws = new WebSocket(url);
        ws.on('open', () => ws.send(JSON.stringify({ t: 'subscribe', jobId, ...(lastSeq !== undefined ? { since: lastSeq } : {}) })));
        ws.on('message', (raw) => {
          const f = JSON.parse(String(raw)) as ServerFrame;
          if ('seq' in f) lastSeq = f.seq;
          if (f.t === 'snapshot') lastSeq = f.snapshot.seq;
          onFrame(f);
          const status = f.t === 'status' ? f.status : f.t === 'snapshot' ? f.snapshot.job.status : null;
          if (status && ['completed', 'failed', 'stopped', 'interrupted'].includes(status)) {
            done = true;
            ws.close();
            this.request<Job>('GET', `/jobs/${jobId}`).then(resolve, reject);
          }
        });
        ws.on('close', () => {
          if (done) return;
          if (attempt > 30) reject(new SledgeError('SLEDGE_E_CONNECT', `lost the connection to ${this.base}`));
          else setTimeout(() => open(attempt + 1), Math.min(5000, 250 * 2 ** attempt));
        });
        ws.on('error', () => undefined);
      };
      open(0);
    });
  }
}

/** Why a request failed: fetch's cause.code (ECONNREFUSED ...), node:http's own code, else the message. */
function reason(e: unknown): string {
  const err = e as Error & { code?: string; cause?: { code?: string } };
  return err.cause?.code ?? err.code ?? err.message;
}
