export * from './patient-ordering';
export * from './schemas';
export * from './views';
