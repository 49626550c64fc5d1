export { driver, type SqliteDriver } from './driver.js';
export { classifyError, SessionClosedError } from './errors.js';
export type { SqliteVuSession } from './session.js';
export { resolveFile } from './connection.js';
export { NAMED_SQL_FILES, namedSql } from './sql.js';
import { driver } from './driver.js';
export default driver;
