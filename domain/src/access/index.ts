export * from './access';
export * from './passwords';
export * from './schemas';
export * from './sign-in-portals';
export * from './views';
