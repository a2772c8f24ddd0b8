export * from './audit';
export * from './constants';
export * from './dates';
export * from './files';
export * from './people';
export * from './schemas';
export * from './text';
export * from './values';
