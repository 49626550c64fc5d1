export { driver } from './driver.js';
export { driver as default } from './driver.js';
export { classifyError, connectError } from './errors.js';
export { tediousConfig, mssqlAuthentication } from './config.js';
export { procCall, outcomeOf } from './params.js';
export { parseMssqlUrl } from './url.js';
export { MSSQL_SQL, mssqlSql } from './sqlfiles.js';
export { MssqlAshSampler, viewServerStateError } from './ash/sampler.js';
export { mssqlWaitClass, MSSQL_WAIT_RULES } from './ash/waitclass.js';
