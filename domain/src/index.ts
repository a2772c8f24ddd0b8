export * from './enums';
export * from './sample-lifecycle';
export * from './identifiers';
export * from './catalogue';
export * from './constants';
export * from './jobs';
export * from './schemas';
export * from './sign-in-portals';
