export { driver } from './driver.js';
export { driver as default } from './driver.js';
export { classifyError, connectError } from './engine/errors.js';
export { oracleConnectAttrs } from './engine/config.js';
export { plsqlCall, outcomeOf } from './tprocc/params.js';
export { parseOracleUrl } from './engine/url.js';
export { ORACLE_SQL, oracleSql } from './tprocc/sqlfiles.js';
export { OracleAshSampler } from './engine/ash/sampler.js';
export { ORACLE_WAIT_CLASS, oracleWaitClass } from './engine/ash/waitclass.js';
