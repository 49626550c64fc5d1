/** The driver registry lives below the engine and the workers (shared/drivers.ts); this path stays for the routes. */
export { driverFor, loadDriver } from '../shared/drivers.js';
