export * from './attestations';
export * from './orders';
export * from './schemas';
export type * from './views';
