/** What the worker uses of the result area ('@platform/api/reports'): result links and released results. No HTTP here. */
export * from './result-links.service';
export * from './released-results';
