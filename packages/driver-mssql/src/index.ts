export { driver } from './driver.js';
export { driver as default } from './driver.js';
export { classifyError, connectError } from './engine/errors.js';
export { tediousConfig, mssqlAuthentication } from './engine/config.js';
export { procCall, outcomeOf } from './tprocc/params.js';
export { parseMssqlUrl } from './engine/url.js';
export { MSSQL_SQL, mssqlSql } from './tprocc/sqlfiles.js';
export { MssqlAshSampler, viewServerStateError } from './engine/ash/sampler.js';
export { mssqlWaitClass, MSSQL_WAIT_RULES } from './engine/ash/waitclass.js';
