import { driver } from './driver.js';

export { driver };
export default driver;
export { classifyError, mapConnectError, ROLLBACK_SQLSTATE } from './errors.js';
export { pgConfig, vuApplicationName, APP_LOADER, APP_MONITOR, CONNECT_TIMEOUT_MS } from './config.js';
export { renderOrderLinePartitions } from './partition.js';
export { PgAshSampler, APP_ASH, visibilityFix } from './ash/sampler.js';
export { pgWaitClass, PG_WAIT_TYPE_CLASS, PG_WAIT_EVENT_CLASS } from './ash/waitclass.js';
