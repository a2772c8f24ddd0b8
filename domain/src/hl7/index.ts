export * from './elr';
export * from './hl7-messages';
export * from './schemas';
export * from './views';
