export * from './emails';
export * from './schemas';
export type * from './views';
