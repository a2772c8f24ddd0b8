export * from './financial-aid';
export * from './payments';
export * from './prices';
export * from './schemas';
export * from './views';
