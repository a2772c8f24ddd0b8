export * from './jobs';
export * from './schemas';
export type * from './views';
