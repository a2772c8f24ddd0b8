export * from './research';
export * from './schemas';
export type * from './views';
