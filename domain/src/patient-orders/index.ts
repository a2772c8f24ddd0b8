export * from './patient-ordering';
export * from './schemas';
export type * from './views';
