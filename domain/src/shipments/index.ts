export * from './schemas';
export * from './shipments';
export * from './views';
