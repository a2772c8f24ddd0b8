export * from './catalogue';
export * from './tests';
