/**
 * The workloads this server runs: one line each. A workload is a folder
 * (workloads/<id>/) whose index exports its WorkloadRunner.
 */
import { registerWorkloadRunner } from './registry.js';
import { tproccRunner } from './tprocc/index.js';
import { tprochRunner } from './tproch/index.js';
import { chbenchRunner } from './chbench/index.js';
import { scriptRunner } from './script/index.js';

registerWorkloadRunner(tproccRunner);
registerWorkloadRunner(tprochRunner);
registerWorkloadRunner(chbenchRunner);
registerWorkloadRunner(scriptRunner);

export { jobBody, registerWorkloadRunner, workloadReport, workloadRunner, type Body, type ResultFigures, type WorkloadReport, type WorkloadRunner } from './registry.js';
