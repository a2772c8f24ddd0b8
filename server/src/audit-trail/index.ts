export * from './chain';
export * from './trail';
