import type { AshSampler, Driver } from '@sledge/core';
import { SledgeError, type AshSample, type SamplerStatus, type WorkloadConfig } from '@sledge/protocol';
import type { JobContext } from '../../engine/job-context.js';
import type { AgentHub } from './agents.js';
import { countedSamples, SamplingGrid } from './ash-grid.js';
import { ClientAsh } from './client-ash.js';

/** Raw ASH samples kept per job; beyond this only the count is noted. */
const ASH_CAP = 500_000;
const INTERVAL_MS = 1000;

/**
 * The samplers that run beside a job: active session history on its own
 * connection (or client-side for engines like SQLite), and CPU agent samples.
 * A sampler that cannot work never fails the job: the job records why and
 * what to grant or enable.
 */
export class JobSamplers {
  private timer: NodeJS.Timeout | null = null;
  private sampler: AshSampler | null = null;
  private busy = false;
  private stored = 0;
  private errors = 0;
  private offCpu: (() => void) | null = null;
  private client: ClientAsh | null = null;
  private stopped = false;
  private lastNotice: string | undefined;
  private readonly grid = new SamplingGrid(INTERVAL_MS);

  constructor(
    private readonly ctx: JobContext,
    private readonly cfg: WorkloadConfig,
    private readonly driver: Driver,
    private readonly agents: AgentHub,
    /** The job's session tag: only sessions named with it are the job's VUs in its ASH. */
    private readonly sessionTag?: string,
  ) {}

  private status(s: Omit<SamplerStatus, 'ts'>): void {
    const st: SamplerStatus = { ts: Date.now(), ...s };
    this.ctx.metric('sampler', [{ ts: st.ts, data: st }]);
  }

  async start(): Promise<void> {
    if (this.cfg.metrics.cpu) {
      for (const a of this.agents.list()) this.ctx.system(a.label, a.system as unknown as Record<string, unknown>);
      if (!this.agents.list().length) this.status({ sampler: 'cpu', ok: false, reason: 'no CPU agent is connected', fix: 'start one: pnpm sledge-agent --server ws://<sledge-host>:8080 (the server starts one for itself unless SLEDGE_AGENT=off)' });
      this.offCpu = this.agents.onSample((label, sample) => this.ctx.metric('cpu', [{ ts: sample.ts, source: label, data: sample }]));
    }
    if (!this.cfg.metrics.ash) return;
    if (this.driver.openAshSampler) {
      try {
        const scope = this.cfg.metrics.ashScope ?? 'database';
        this.sampler = await this.driver.openAshSampler(this.cfg.target, (l) => this.ctx.output(1, l), { scope, ...(this.sessionTag ? { vuTag: this.sessionTag } : {}) });
        this.status({ sampler: 'ash', ok: true, source: this.sampler.source });
        this.ctx.output(1, `Active session history: sampling ${this.sampler.source} every second, ${scope === 'server' ? 'every session of the server (metrics.ashScope server)' : "the target database's sessions"}`);
      } catch (e) {
        const err = e instanceof SledgeError ? e : new SledgeError('SLEDGE_E_DB', e instanceof Error ? e.message : String(e));
        // Driver messages for sampler failures say what to grant or enable.
        this.status({ sampler: 'ash', ok: false, reason: err.message, fix: err.message });
        this.ctx.output(1, `Active session history unavailable: ${err.message}`);
        return;
      }
    }
    this.timer = setInterval(() => void this.tick(), INTERVAL_MS);
  }

  /** Client-side ASH: per-VU exec/wait microseconds accumulated by the VU threads. */
  attachClient(ash: SharedArrayBuffer, vus: number): void {
    if (!this.cfg.metrics.ash || this.driver.openAshSampler) return;
    this.client = new ClientAsh(new Int32Array(ash), vus, Date.now());
    this.status({ sampler: 'ash', ok: true, source: 'virtual users (client-side: executing vs waiting for the write lock)' });
  }

  /** One reading: the engine's sampler at the next instant of the grid, or the VUs' own time (client-side; `last`: the run ended). */
  private async read(last: boolean): Promise<AshSample[]> {
    if (this.sampler) return this.sampler.sample(this.grid.instant(Date.now()));
    if (!this.client) return [];
    return last ? this.client.flush(Date.now()) : this.client.take(Date.now());
  }

  private async tick(last = false): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      const samples = countedSamples(await this.read(last), this.cfg.metrics);
      const notice = this.sampler?.notice;
      if (notice && notice !== this.lastNotice) {
        this.lastNotice = notice;
        this.status({ sampler: 'ash', ok: true, source: this.sampler!.source, reason: 'sampling works only in part', fix: notice });
        this.ctx.output(1, `Active session history: ${notice}`);
      }
      if (!samples.length) return;
      if (this.stored >= ASH_CAP) return;
      const keep = samples.slice(0, ASH_CAP - this.stored);
      this.stored += keep.length;
      this.ctx.metric('ash', keep.map((s) => ({ ts: s.ts, data: s })));
      if (this.stored >= ASH_CAP) this.status({ sampler: 'ash', ok: true, reason: `raw sample cap (${ASH_CAP}) reached: later samples are not stored` });
      this.errors = 0;
    } catch (e) {
      this.errors++;
      if (this.errors === 1) this.ctx.output(1, `Active session history sample failed: ${e instanceof Error ? e.message : String(e)}`);
      if (this.errors >= 10) {
        this.status({ sampler: 'ash', ok: false, reason: `10 consecutive samples failed: ${e instanceof Error ? e.message : String(e)}` });
        this.stopTimer();
      }
    } finally {
      this.busy = false;
    }
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async stop(): Promise<void> {
    if (this.client) await this.tick(true);
    this.stopped = true;
    this.stopTimer();
    this.offCpu?.();
    this.offCpu = null;
    await this.sampler?.close().catch(() => undefined);
    this.sampler = null;
  }
}
