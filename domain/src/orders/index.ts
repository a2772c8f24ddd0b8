export * from './attestations';
export * from './orders';
export * from './schemas';
export * from './views';
