/**
 * The workloads the UI ships: one line each. A new workload is a folder beside
 * ./tprocc and one line here.
 */
import { registerWorkloadUi } from './registry.js';
import { TPROCC_UI } from './tprocc/index.js';
import { TPROCH_UI } from './tproch/index.js';
import { CHBENCH_UI } from './chbench/index.js';
import { SCRIPT_UI } from './script/index.js';

registerWorkloadUi(TPROCC_UI);
registerWorkloadUi(TPROCH_UI);
registerWorkloadUi(CHBENCH_UI);
registerWorkloadUi(SCRIPT_UI);

export * from './registry.js';
