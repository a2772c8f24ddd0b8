/** lab-import: a lab file's dry run or commit (server/src/imports/run-import.ts does the work). */
import { runLabImport } from '@platform/server';
import type { Processor } from './types';

export const labImport: Processor<'lab-import'> = (payload, deps, tools) => runLabImport(payload, deps, tools);
