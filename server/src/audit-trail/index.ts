export * from './chain';
export * from './trail';
export * from './partitions';
export * from './archive';
