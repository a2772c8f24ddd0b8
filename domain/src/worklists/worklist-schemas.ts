/** What the worklist routes accept (joi; kept apart from worklists.ts, which the SPA imports). */
import Joi from 'joi';
import { TURNAROUND_TESTS } from '../turnaround/turnaround';
import { pageFields } from '../shared/schemas';
import { WORKLIST_STATUSES, type WorklistStatus } from './worklists';

const STRICT_KEYS = { allowUnknown: false } as const;

export interface LabWorklistQuery {
  page: number;
  pageSize: number;
  /** Only this test's samples. */
  test?: string;
  /** Only samples In Queue, or only In Testing (a stored one by the status it left). */
  status?: WorklistStatus;
}

/** GET /api/lab-toolbox/worklist?page=&pageSize=&test=&status= */
export const labWorklistQuery = /*#__PURE__*/ Joi.object<LabWorklistQuery>({
  ...pageFields,
  test: Joi.string().valid(...TURNAROUND_TESTS).empty('').label('Test')
    .messages({ 'any.only': `{#label} must be one of: ${TURNAROUND_TESTS.join(', ')}` }),
  status: Joi.string().valid(...WORKLIST_STATUSES).empty('').label('Status')
    .messages({ 'any.only': `{#label} must be ${WORKLIST_STATUSES.join(' or ')}` }),
}).options(STRICT_KEYS).label('Query');
