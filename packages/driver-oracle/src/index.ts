export { driver } from './driver.js';
export { driver as default } from './driver.js';
export { classifyError, connectError } from './errors.js';
export { oracleConnectAttrs } from './config.js';
export { plsqlCall, outcomeOf } from './params.js';
export { parseOracleUrl } from './url.js';
export { ORACLE_SQL, oracleSql } from './sqlfiles.js';
export { OracleAshSampler } from './ash/sampler.js';
export { ORACLE_WAIT_CLASS, oracleWaitClass } from './ash/waitclass.js';
