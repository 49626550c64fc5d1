import { TPROCH_QUERIES, type TprochOptions } from '@sledge/protocol';
import type { StreamWorkload } from '../shapes/stream.js';
import { tprochQueryParams, tprochQueryText } from './params.js';
import { streamOrder } from './permutations.js';

/**
 * TPROC-H as a stream workload: a pass is the 22 queries in the stream's
 * TPC-H Appendix A order (stream 0 = the power test's row 0), with
 * substitution parameters drawn by TPC-H's rules from the job's seed, or the
 * qualification values with `validation`. The power and throughput tests
 * (and the refresh functions around them) are the server's TPROC-H job
 * bodies on the generic stream runner.
 */
export const tprochStreams: StreamWorkload<TprochOptions> = {
  shape: 'stream',
  id: 'tproch',
  name: 'TPROC-H',
  queries: TPROCH_QUERIES,
  sqlArea: 'tproch',
  sqlFile: 'queries.sql',
  sessionName: (stream) => `tproch-${stream}`,
  querySet({ seed, options, stream, set, sql }) {
    const params = tprochQueryParams({ seed, stream, set, scaleFactor: options.scaleFactor, validation: options.validation });
    return streamOrder(stream).map((q, i) => ({ position: i + 1, text: tprochQueryText(sql, q, params[q]!) }));
  },
};
