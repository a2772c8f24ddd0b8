export * from './addresses';
export * from './audit';
export * from './constants';
export * from './dates';
export * from './lab-clock';
export * from './files';
export * from './people';
export * from './schemas';
export * from './text';
export * from './values';
// The answer shapes' types and builders, as one namespace: `string`, `object`… are too general to spread into the barrel.
export * as shapes from './shapes';
export type { Infer, JsonSchema, Shape } from './shapes';
