export * from './turnaround';
export * from './turnaround-schemas';
