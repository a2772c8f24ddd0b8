export * from './dna-extraction';
export * from './schemas';
