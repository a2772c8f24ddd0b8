import type { JobName } from '@platform/domain';
import type { Processor } from './types';
import { sendEmail } from './send-email';
import { renderPdf } from './render-pdf';
import { notifyResult } from './notify-result';
import { labImport } from './lab-import';

export type ProcessorRegistry = { [N in JobName]: Processor<N> };

/** The processor registry: one entry per job name of domain/jobs.ts. */
export const PROCESSORS: ProcessorRegistry = {
  'send-email': sendEmail,
  'render-pdf': renderPdf,
  'notify-result': notifyResult,
  'lab-import': labImport,
};
