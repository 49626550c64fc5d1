/**
 * CH-benCHmark (docs/chbench.md): TPROC-C's nine tables plus REGION, NATION
 * and SUPPLIER, and the 22 analytic queries (packages/sql/<engine>/chbench/).
 * This folder holds the three extra tables' rules and generator.
 */
export * from './columns.js';
export * from './nations.js';
export * from './generate.js';
export * from './streams.js';
