export * from './catalogue';
export * from './tests';
export * from './test-lines';
