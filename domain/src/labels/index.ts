export * from './labels';
export * from './schemas';
