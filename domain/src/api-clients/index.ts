export * from './api-clients';
export * from './schemas';
export type * from './views';
export * from './webhooks';
