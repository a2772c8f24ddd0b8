export * from './emails';
export * from './schemas';
export * from './views';
