export { driver } from './driver.js';
export { driver as default } from './driver.js';
export { classifyError, connectError } from './errors.js';
export { db2ConnectionString } from './config.js';
export { db2Call, outcomeOf } from './params.js';
export { parseDb2Url } from './url.js';
export { INSTALL_IBM_DB } from './library.js';
export { DB2_SQL, SqlLibrary, findSqlDir } from './sqlfiles.js';
