/** A user's stop request for one job: checked, awaited, or subscribed to. */
export class StopToken {
  requested = false;
  private readonly listeners: (() => void)[] = [];
  readonly promise: Promise<void>;
  private resolve!: () => void;

  constructor() {
    this.promise = new Promise<void>((r) => (this.resolve = r));
  }

  request(): void {
    if (this.requested) return;
    this.requested = true;
    this.resolve();
    for (const l of this.listeners.splice(0)) l();
  }

  onStop(l: () => void): void {
    if (this.requested) l();
    else this.listeners.push(l);
  }

  /** Sleep ms, or less when a stop is requested. Resolves true if stopped. */
  async sleep(ms: number): Promise<boolean> {
    if (this.requested) return true;
    let t: NodeJS.Timeout | undefined;
    await Promise.race([this.promise, new Promise<void>((r) => (t = setTimeout(r, ms)))]);
    if (t) clearTimeout(t);
    return this.requested;
  }
}
