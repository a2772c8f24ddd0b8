export * from './research';
export * from './schemas';
export * from './views';
