export * from './plates';
export * from './schemas';
export * from './views';
