export * from './correction-schemas';
export * from './corrections';
export * from './patients';
export * from './schemas';
export * from './views';
