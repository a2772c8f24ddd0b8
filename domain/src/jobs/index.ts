export * from './jobs';
export * from './schemas';
export * from './views';
