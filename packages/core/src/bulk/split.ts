/** Splitting a range of units (warehouses, TPROC-H row ranges) over build workers. */
export interface WarehouseRange {
  /** HammerDB VU position of the build worker: 2..n+1 (1 is the monitor). */
  worker: number;
  start: number;
  end: number;
}

/**
 * Split W warehouses over n build workers as HammerDB's findchunk does
 * (hammerdb.md §5.3): chunk = W div n, rem = W mod n; when rem > chunk the
 * first rem workers take chunk+1; the last worker always ends at W.
 */
export function splitWarehouses(W: number, n: number): WarehouseRange[] {
  if (n < 1 || W < 1) throw new RangeError('warehouses and workers must be >= 1');
  const workers = Math.min(n, W);
  const chunk = Math.floor(W / workers);
  const rem = W % workers;
  const out: WarehouseRange[] = [];
  let start = 1;
  for (let i = 0; i < workers; i++) {
    const size = rem > chunk && i < rem ? chunk + 1 : chunk;
    const end = i === workers - 1 ? W : start + size - 1;
    out.push({ worker: i + 2, start, end });
    start = end + 1;
  }
  return out;
}
