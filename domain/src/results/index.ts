export * from './codes';
export * from './release-rule';
export * from './result-link-schemas';
export * from './result-links';
export * from './result-lists';
export * from './result-values';
export * from './review';
export * from './schemas';
export type * from './views';
