export * from './accounts';
export * from './schemas';
export type * from './views';
