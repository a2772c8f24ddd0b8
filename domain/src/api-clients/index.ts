export * from './api-clients';
export * from './schemas';
export * from './views';
export * from './webhooks';
