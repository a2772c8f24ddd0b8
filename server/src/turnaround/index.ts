export * from './turnaround';
export * from './targets';
export * from './csv';
