export * from './accounts';
export * from './schemas';
export * from './views';
