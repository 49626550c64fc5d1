import { driver } from './driver.js';

export { driver };
export default driver;
export { classifyError, mapConnectError, ROLLBACK_SQLSTATE } from './errors.js';
export { pgConfig, vuApplicationName, APP_LOADER, APP_MONITOR, CONNECT_TIMEOUT_MS } from './config.js';
export { renderOrderLinePartitions } from './partition.js';
