export { renderJobReport } from './job-report.js';
export { renderCompareReport, MAX_COMPARE, MIN_COMPARE } from './compare-report.js';
export { REPORT_CSP } from './page.js';
