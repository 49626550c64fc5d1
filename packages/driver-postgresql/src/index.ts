import { driver } from './driver.js';

export { driver };
export default driver;
export { classifyError, mapConnectError, ROLLBACK_SQLSTATE } from './engine/errors.js';
export { pgConfig, vuApplicationName, APP_LOADER, APP_MONITOR, CONNECT_TIMEOUT_MS } from './engine/config.js';
export { renderOrderLinePartitions } from './tprocc/partition.js';
export { PgAshSampler, APP_ASH, visibilityFix } from './engine/ash/sampler.js';
export { pgWaitClass, PG_WAIT_TYPE_CLASS, PG_WAIT_EVENT_CLASS } from './engine/ash/waitclass.js';
