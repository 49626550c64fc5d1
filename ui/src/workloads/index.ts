/**
 * The workloads the UI ships: one line each. A new workload is a folder beside
 * ./tprocc and one line here.
 */
import { registerWorkloadUi } from './registry.js';
import { TPROCC_UI } from './tprocc/index.js';

registerWorkloadUi(TPROCC_UI);

export * from './registry.js';
