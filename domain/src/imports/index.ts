export * from './imports';
export * from './schemas';
export type * from './views';
