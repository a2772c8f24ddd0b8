export * from './imports';
export * from './schemas';
export * from './views';
