/** What the turnaround routes accept (joi; kept apart from turnaround.ts, which the SPA imports). */
import Joi from 'joi';
import {
  CLINIC_TURNAROUND_TABLES, LAB_TURNAROUND_TABLES, MAX_TARGET, TARGET_UNITS, TURNAROUND_MAX_DAYS, TURNAROUND_TESTS,
  type ClinicTurnaroundTable, type LabTurnaroundTable, type TargetUnit,
} from './turnaround';
import type { TestName } from '../catalogue/tests';

const STRICT_KEYS = { allowUnknown: false } as const;
const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;
const optionalDay = (label: string) => Joi.string().trim()
  .custom((v: string, helpers) => (isDay(v) ? v : helpers.error('string.day'))).allow('', null).empty(['', null]).default(null).label(label)
  .messages({ 'string.day': '{#label} must be a date (YYYY-MM-DD)' });

export interface TurnaroundQuery {
  /** First day of the range (YYYY-MM-DD), null: 12 weeks before `to`. */
  from: string | null;
  /** Last day of the range, included (YYYY-MM-DD), null: today. */
  to: string | null;
}

/** From: a day, on or before To and within TURNAROUND_MAX_DAYS of it (checked here so the error names the field). */
const fromDay = optionalDay('From').custom((v: string | null, helpers) => {
  const to = (helpers.state.ancestors[0] as { to?: unknown }).to;
  if (!v || typeof to !== 'string' || !isDay(to)) return v;
  const days = (Date.parse(to) - Date.parse(v)) / 86_400_000;
  if (days < 0) return helpers.error('range.order');
  if (days >= TURNAROUND_MAX_DAYS) return helpers.error('range.length');
  return v;
}).messages({ 'range.order': '{#label} must be on or before To', 'range.length': `{#label} must be within ${TURNAROUND_MAX_DAYS} days of To` });

const rangeFields = { from: fromDay, to: optionalDay('To') };

/** GET …/turnaround?from=&to= */
export const turnaroundQuery = Joi.object<TurnaroundQuery>(rangeFields).options(STRICT_KEYS).label('Query');

export interface LabTurnaroundExportQuery extends TurnaroundQuery { table: LabTurnaroundTable }
export interface ClinicTurnaroundExportQuery extends TurnaroundQuery { table: ClinicTurnaroundTable }

/** GET /api/lab-toolbox/turnaround/export.csv?table=&from=&to= */
export const labTurnaroundExportQuery = Joi.object<LabTurnaroundExportQuery>({
  ...rangeFields, table: Joi.string().valid(...LAB_TURNAROUND_TABLES).required().label('Table'),
}).options(STRICT_KEYS).label('Query');

/** GET /api/provider-clinic/{accountId}/turnaround/export.csv?table=&from=&to= */
export const clinicTurnaroundExportQuery = Joi.object<ClinicTurnaroundExportQuery>({
  ...rangeFields, table: Joi.string().valid(...CLINIC_TURNAROUND_TABLES).required().label('Table'),
}).options(STRICT_KEYS).label('Query');

export interface TurnaroundTargetBody {
  testName: TestName;
  amount: number;
  unit: TargetUnit;
}

/** PUT /api/admin/turnaround/targets: one test's target, receipt → result. */
export const turnaroundTargetBody = Joi.object<TurnaroundTargetBody>({
  testName: Joi.string().valid(...TURNAROUND_TESTS).required().label('Test')
    .messages({ 'any.only': '{#label} must be one of the tests that report a result' }),
  unit: Joi.string().valid(...TARGET_UNITS).required().label('Unit'),
  amount: Joi.number().integer().min(1).required().label('Target')
    .when('unit', {
      switch: TARGET_UNITS.map((u) => ({ is: u, then: Joi.number().max(MAX_TARGET[u]).messages({ 'number.max': `{#label} must be at most ${MAX_TARGET[u]} ${u}` }) })),
    })
    .messages({ 'number.min': '{#label} must be at least 1', 'number.integer': '{#label} must be a whole number', 'number.base': '{#label} must be a number' }),
}).options(STRICT_KEYS).label('Request body');
