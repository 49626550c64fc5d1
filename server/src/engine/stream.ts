import type { JobStreamFrame, OutputLine, ServerFrame, Snapshot } from '@sledge/protocol';

/** A frame before the stream numbers it. */
export type PendingFrame = JobStreamFrame extends infer F ? (F extends { seq: number } ? Omit<F, 'seq'> : never) : never;

export interface Subscriber {
  /** Sends one frame; returns false when the subscriber is too far behind (frame dropped). */
  send(frame: ServerFrame): boolean;
  /** Bytes queued and not yet written to the socket. */
  backlog(): number;
}

/** The resume ring keeps at most this many frames, and at most RING_BYTES of them (as JSON). */
export const RING = 20000;
export const RING_BYTES = 8 * 1024 * 1024;
const MAX_BACKLOG = 4 * 1024 * 1024;
const FLUSH_MS = 100;

/**
 * The live frame stream of one job. Frames are numbered (seq, +1 per frame),
 * batched to at most ~10 flushes per second, kept in a bounded ring for
 * resuming subscribers (a subscriber resuming from before the ring gets a
 * snapshot), and fanned out without ever waiting on a slow socket: a
 * subscriber whose backlog is too large is marked stale and gets a fresh
 * snapshot once it drains.
 */
export class JobStream {
  seq = 0;
  private ring: JobStreamFrame[] = [];
  /** JSON size of each ring frame, and their sum. */
  private ringSizes: number[] = [];
  private ringBytesTotal = 0;
  private pending: PendingFrame[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly subs = new Map<Subscriber, { stale: boolean }>();

  constructor(
    readonly jobId: string,
    private readonly snapshot: () => Snapshot,
  ) {}

  emit(f: PendingFrame, urgent = false): void {
    this.pending.push(f);
    if (urgent) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Assign seqs to pending frames (merging consecutive mergeable ones) and fan them out. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.pending.length) return;
    const merged = mergeFrames(this.pending);
    this.pending = [];
    const out: JobStreamFrame[] = [];
    for (const f of merged) {
      const frame = { ...f, seq: ++this.seq } as JobStreamFrame;
      const size = JSON.stringify(frame).length;
      this.ring.push(frame);
      this.ringSizes.push(size);
      this.ringBytesTotal += size;
      out.push(frame);
    }
    this.trimRing();
    for (const [sub, st] of this.subs) {
      if (st.stale) {
        if (sub.backlog() < MAX_BACKLOG / 4) {
          st.stale = false;
          this.sendSnapshot(sub);
        }
        continue;
      }
      for (const f of out) {
        if (sub.backlog() > MAX_BACKLOG || !sub.send(f)) {
          st.stale = true;
          break;
        }
      }
    }
  }

  /** Subscribe; replays from `since` when the ring still holds it, otherwise sends a snapshot. */
  subscribe(sub: Subscriber, since?: number): void {
    this.flush();
    this.subs.set(sub, { stale: false });
    const first = this.ring[0]?.seq ?? this.seq + 1;
    if (since !== undefined && since <= this.seq && since + 1 >= first) {
      for (const f of this.ring) if (f.seq > since) sub.send(f);
    } else if (since !== undefined && since === this.seq) {
      // Up to date already.
    } else {
      this.sendSnapshot(sub);
    }
  }

  /** Drop the oldest frames beyond RING frames or RING_BYTES (the newest frame always stays). */
  private trimRing(): void {
    let n = 0;
    while (this.ring.length - n > 1 && (this.ring.length - n > RING || this.ringBytesTotal > RING_BYTES)) this.ringBytesTotal -= this.ringSizes[n++]!;
    if (n) {
      this.ring = this.ring.slice(n);
      this.ringSizes = this.ringSizes.slice(n);
    }
  }

  /** Frames and JSON bytes held for resuming subscribers. */
  get ringSize(): { frames: number; bytes: number } {
    return { frames: this.ring.length, bytes: this.ringBytesTotal };
  }

  /**
   * The job has ended: its frames are in the store, so the ring is let go
   * (a later resume gets a snapshot). Subscribers stay.
   */
  release(): void {
    this.flush();
    this.ring = [];
    this.ringSizes = [];
    this.ringBytesTotal = 0;
  }

  unsubscribe(sub: Subscriber): void {
    this.subs.delete(sub);
  }

  get subscriberCount(): number {
    return this.subs.size;
  }

  private sendSnapshot(sub: Subscriber): void {
    const snapshot = this.snapshot();
    snapshot.seq = this.seq;
    sub.send({ t: 'snapshot', jobId: this.jobId, snapshot });
  }

  close(): void {
    this.flush();
  }
}

/** Merge runs of output / tcount / latency frames into one frame each. */
function mergeFrames(frames: PendingFrame[]): PendingFrame[] {
  const out: PendingFrame[] = [];
  for (const f of frames) {
    const last = out[out.length - 1];
    if (last && last.t === f.t) {
      if (f.t === 'output' && last.t === 'output') {
        last.lines = (last.lines as OutputLine[]).concat(f.lines);
        continue;
      }
      if (f.t === 'tcount' && last.t === 'tcount') {
        last.engine = last.engine.concat(f.engine);
        last.client = last.client.concat(f.client);
        continue;
      }
      if (f.t === 'latency' && last.t === 'latency') {
        last.samples = last.samples.concat(f.samples);
        continue;
      }
      if ((f.t === 'vus' && last.t === 'vus') || (f.t === 'progress' && last.t === 'progress')) {
        out[out.length - 1] = { ...f };
        continue;
      }
      if (f.t === 'metric' && last.t === 'metric' && f.kind === last.kind) {
        last.samples = last.samples.concat(f.samples);
        continue;
      }
    }
    out.push({ ...f } as PendingFrame);
  }
  return out;
}
