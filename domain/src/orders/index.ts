export * from './attestations';
export * from './cancellation';
export * from './diagnoses';
export * from './diagnosis-schemas';
export * from './orders';
export * from './schemas';
export * from './views';
