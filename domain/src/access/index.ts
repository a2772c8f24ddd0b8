export * from './access';
export * from './passwords';
export * from './schemas';
export * from './sign-in-portals';
export * from './views';
export * from './two-factor';
export * from './two-factor-schemas';
