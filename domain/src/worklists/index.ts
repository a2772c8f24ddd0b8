export * from './worklists';
export * from './worklist-schemas';
