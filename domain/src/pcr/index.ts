export * from './plates';
export * from './schemas';
export type * from './views';
