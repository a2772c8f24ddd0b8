import type { Processor } from './types';

export const labImport: Processor<'lab-import'> = async () => {
  throw new Error('lab-import is being written');
};
