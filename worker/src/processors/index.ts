import type { JobName } from '@platform/domain';
import type { Processor } from './types';
import { sendEmail } from './send-email';

/** The processor registry: one entry per job name of domain/jobs.ts. */
export const PROCESSORS: { [N in JobName]: Processor<N> } = {
  'send-email': sendEmail,
};
