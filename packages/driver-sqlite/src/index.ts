export { driver, type SqliteDriver } from './driver.js';
export { classifyError, SessionClosedError } from './engine/errors.js';
export type { SqliteVuSession } from './tprocc/session.js';
export { resolveFile } from './engine/connection.js';
export { NAMED_SQL_FILES, namedSql } from './tprocc/sql.js';
import { driver } from './driver.js';
export default driver;
