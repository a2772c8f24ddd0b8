export * from './signatures';
export * from './schemas';
