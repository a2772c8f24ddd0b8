export * from './sms';
export * from './schemas';
export * from './views';
