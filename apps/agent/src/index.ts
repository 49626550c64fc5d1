export { CpuCollector, type CollectorOptions } from './collector.js';
export { parseProcStat, cpuLine, cpuLines, type CpuTimes, type CpuSnapshot } from './procstat.js';
export { parseDiskStats, selectDisks, diskRates, type DiskCounters, type DiskSnapshot, type DiskRates } from './diskstats.js';
export { discoverSystem, cpuModelFrom, memTotalFrom, prettyNameFrom } from './system.js';
export { AgentClient, agentUrl, backoffDelay, AGENT_PATH, type AgentClientOptions, type SampleSource } from './client.js';
export { parseArgs, USAGE, ArgsError, type AgentArgs } from './args.js';
export { formatSample } from './format.js';
