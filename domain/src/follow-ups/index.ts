export * from './follow-ups';
export * from './schemas';
