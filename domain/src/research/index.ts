export * from './research';
export * from './questionnaires';
export * from './schemas';
export * from './views';
