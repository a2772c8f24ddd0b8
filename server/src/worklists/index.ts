export * from './lab-worklist';
export * from './clinic-needs';
