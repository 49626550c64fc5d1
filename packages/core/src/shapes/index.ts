export * from './common.js';
export * from './vu.js';
export * from './stream.js';
