import { SledgeError, type ClientSample, type EngineSample, type LatencySample } from '@sledge/protocol';
import type { Db } from './db.js';
import type { Row, WriteBuffer } from './buffer.js';
import type { JobsRepo } from './jobs.js';
import { requireArray, requireFiniteNumber } from './check.js';
import { fromJson, toJson } from './json.js';

const ENGINE_SINK = 'tcount';
const CLIENT_SINK = 'client-rate';
const LATENCY_SINK = 'latency';

/** Validate that every sample is an object with a finite `ts` (what ordering and range reads use). */
function checkSamples(samples: readonly { ts: number }[], field: string): void {
  requireArray(samples, field);
  samples.forEach((s, i) => {
    if (s === null || typeof s !== 'object') throw new SledgeError('SLEDGE_E_VALIDATION', `${field}[${i}] must be an object`, { field: `${field}[${i}]` });
    requireFiniteNumber(s.ts, `${field}[${i}].ts`);
  });
}

/**
 * Time series of a run (HammerDB's JOBTCOUNT and more): engine TPM/NOPM
 * samples, client per-second rates by transaction type, interval latency
 * percentiles. Appends are buffered; reads return samples in ts order
 * (append order for equal ts).
 */
export class SeriesRepo {
  constructor(
    private readonly db: Db,
    private readonly jobs: JobsRepo,
    private readonly buffer: WriteBuffer,
  ) {
    buffer.sink(ENGINE_SINK, 'INSERT INTO job_tcount (job_id, ts, tpm, nopm) VALUES (?, ?, ?, ?)');
    buffer.sink(CLIENT_SINK, 'INSERT INTO job_client_rate (job_id, ts, data) VALUES (?, ?, ?)');
    buffer.sink(LATENCY_SINK, 'INSERT INTO job_latency (job_id, ts, data) VALUES (?, ?, ?)');
  }

  appendEngine(jobId: string, samples: readonly EngineSample[]): void {
    checkSamples(samples, 'samples');
    samples.forEach((s, i) => {
      requireFiniteNumber(s.tpm, `samples[${i}].tpm`);
      requireFiniteNumber(s.nopm, `samples[${i}].nopm`);
    });
    this.jobs.assertExists(jobId);
    this.buffer.push(ENGINE_SINK, samples.map((s): Row => [jobId, s.ts, s.tpm, s.nopm]));
  }

  appendClient(jobId: string, samples: readonly ClientSample[]): void {
    this.appendJson(CLIENT_SINK, jobId, samples);
  }

  appendLatency(jobId: string, samples: readonly LatencySample[]): void {
    this.appendJson(LATENCY_SINK, jobId, samples);
  }

  /** The caller flushes the buffer first. */
  tcount(jobId: string): { engine: EngineSample[]; client: ClientSample[] } {
    const engine = this.db.prepare('SELECT ts, tpm, nopm FROM job_tcount WHERE job_id = ? ORDER BY ts, rowid').all(jobId) as EngineSample[];
    return { engine, client: this.readJson<ClientSample>('job_client_rate', jobId) };
  }

  /** The caller flushes the buffer first. */
  latency(jobId: string): LatencySample[] {
    return this.readJson<LatencySample>('job_latency', jobId);
  }

  private appendJson(sink: string, jobId: string, samples: readonly { ts: number }[]): void {
    checkSamples(samples, 'samples');
    this.jobs.assertExists(jobId);
    this.buffer.push(sink, samples.map((s, i): Row => [jobId, s.ts, toJson(s, `samples[${i}]`)]));
  }

  private readJson<T>(table: 'job_client_rate' | 'job_latency', jobId: string): T[] {
    const rows = this.db.prepare(`SELECT data FROM ${table} WHERE job_id = ? ORDER BY ts, rowid`).all(jobId) as { data: string }[];
    return rows.map((r) => fromJson<T>(r.data));
  }
}
