export * from './audit-trail';
export * from './schemas';
export * from './views';
