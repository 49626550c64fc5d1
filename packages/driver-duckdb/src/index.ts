export { driver, NOT_OFFERED, type DuckdbDriver } from './driver.js';
export { classifyError, DuckdbInterrupted, SessionClosedError } from './engine/errors.js';
export { resolveFile } from './engine/connection.js';
import { driver } from './driver.js';
export default driver;
