export * from './patients';
export * from './schemas';
export * from './views';
