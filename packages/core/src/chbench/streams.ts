import { CHBENCH_QUERIES, type ChbenchAnalyticOptions } from '@sledge/protocol';
import type { StreamWorkload } from '../shapes/stream.js';

/**
 * CH-benCHmark's analytic side as a stream workload: a pass is the 22
 * queries once each, and stream s starts its passes at query s (mod 22) so
 * concurrent streams run different queries at the same moment, as the
 * CH-benCHmark paper's streams do (each loops over the 22 queries, no
 * substitution parameters: the queries are fixed text). The server runs the
 * streams beside TPROC-C's virtual users for the same timed window.
 */
export const chbenchStreams: StreamWorkload<ChbenchAnalyticOptions> = {
  shape: 'stream',
  id: 'chbench',
  name: 'CH-benCHmark',
  queries: CHBENCH_QUERIES,
  sqlArea: 'chbench',
  sqlFile: 'queries.sql',
  sessionName: (stream) => `chbench-${stream}`,
  querySet({ stream, sql }) {
    const n = CHBENCH_QUERIES.length;
    const first = (Math.max(1, stream) - 1) % n;
    return Array.from({ length: n }, (_, i) => {
      const query = ((first + i) % n) + 1;
      const text = sql[`q${query}`];
      if (text === undefined) throw new Error(`the engine's chbench/queries.sql has no statement q${query}`);
      return { position: i + 1, text: { query, statements: [{ sql: text, timed: true }] } };
    });
  },
};
