/**
 * Correcting a patient's details (docs/clinical-orders.md): what the patient page shows of a
 * correction, and the correction form's fields as the API describes them (read from the
 * new-patient schema by correction-schemas.ts). Plain values, no joi.
 */
import * as s from '../shared/shapes';

/** A field of the correction form: every field a new patient has, with its label, whether required, its fixed values (sex) and whether it is a date. */
export const CorrectableFieldSpec = s.object({
  key: s.string,
  label: s.string,
  required: s.boolean,
  options: s.nullable(s.array(s.string)),
  date: s.boolean,
});
export type CorrectableFieldSpec = s.Infer<typeof CorrectableFieldSpec>;

/** One correction as the patient page shows it: who, when, why, and each changed field's old and new value. */
export const PatientCorrectionView = s.object({
  id: s.integer,
  at: s.string,
  by: s.string,
  reason: s.string,
  changes: s.array(s.object({ field: s.string, label: s.string, before: s.nullable(s.string), after: s.nullable(s.string) })),
});
export type PatientCorrectionView = s.Infer<typeof PatientCorrectionView>;
