export * from './schemas';
export * from './shipments';
export type * from './views';
