/**
 * HammerDB's status lines for a build's virtual users: every build VU prints
 * `Vuser N:RUNNING` when it starts and `Vuser N:FINISHED SUCCESS` when it is
 * done. Sledge writes them on the status stream (VU 0) for the build workers
 * 2..n; VU 1 (the monitor, which also loads ITEM/REGION) gets its own from the
 * job's status (routes/hammerdb/jobs-data.ts statusLines, the CLI's followJob).
 */
export function buildVuStatus(output: (vu: number, text: string) => void): { log: (vu: number) => void; done: (vu: number) => void } {
  const started = new Set<number>();
  const finished = new Set<number>();
  const log = (vu: number) => {
    if (vu <= 1 || started.has(vu)) return;
    started.add(vu);
    output(0, `Vuser ${vu}:RUNNING`);
  };
  return {
    log,
    done: (vu: number) => {
      if (vu <= 1 || finished.has(vu)) return;
      log(vu);
      finished.add(vu);
      output(0, `Vuser ${vu}:FINISHED SUCCESS`);
    },
  };
}
