export * from './patients';
export * from './schemas';
export type * from './views';
