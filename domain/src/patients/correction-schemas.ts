/**
 * Correcting a patient's details (docs/clinical-orders.md): the clinic sends the patient's details
 * as they should read, with a reason. The body is the new-patient schema itself plus the reason, so
 * a field the patient record gains (and the new-patient form asks for) is correctable at once, and
 * the form is drawn from the same schema (correctableFields). Only the fields that differ are
 * written and kept, old and new, in the patient's corrections history.
 */
import Joi from 'joi';
import { REASON_MAX_LENGTH } from '../shared/constants';
import type { CorrectableFieldSpec } from './corrections';
import { newPatientBody, type NewPatientBody } from './schemas';

export interface PatientCorrectionBody extends NewPatientBody { reason: string }

/** POST provider-clinic/{accountId}/patient/{patientId}/correct: the details as they should read, and why. */
export const patientCorrectionBody = (newPatientBody as Joi.ObjectSchema).keys({
  reason: Joi.string().trim().min(1).max(REASON_MAX_LENGTH).required().label('Reason for the correction'),
}) as Joi.ObjectSchema<PatientCorrectionBody>;

/** The patient fields a correction sets (every field of a new patient), in the form's order. */
export type CorrectableField = keyof NewPatientBody;

interface KeyDescription { flags?: { label?: string; presence?: string; only?: boolean }; allow?: unknown[]; rules?: { name: string }[] }

/** The correction form's fields, read from the new-patient schema (labels, required, fixed values). */
export function correctableFields(): (CorrectableFieldSpec & { key: CorrectableField })[] {
  const keys = (newPatientBody.describe() as { keys: Record<string, KeyDescription> }).keys;
  return Object.entries(keys).map(([key, d]) => ({
    key: key as CorrectableField,
    label: d.flags?.label ?? key,
    required: d.flags?.presence === 'required',
    options: d.flags?.only ? (d.allow ?? []).filter((v): v is string => typeof v === 'string' && v !== '') : null,
    date: key === 'dateOfBirth',
  }));
}

