/**
 * A patient's mobile number and consent to texts, set from the three places that ask for them (the
 * patient's own order, their result page, the clinic's patient form), in the caller's transaction.
 * Consent is given for a number: a new number without consent in the same request withdraws it.
 * Each change is audited with the old and new values (the number by its last four digits only)
 * and where it came from; the row keeps when and where consent was last given or withdrawn.
 */
import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { maskedMobile, SMS_CONSENT_NEEDS_NUMBER, type SmsConsentSource, type SmsContact, type SmsContactInput } from '@platform/domain';
import { recordAudit, type AuditEntry } from '../audit';
import { badRequest } from '../errors';

type PatientRow = InstanceType<Db['models']['Patient']>;

/** The patient's texts settings as the API answers them. */
export function smsContactOf(patient: PatientRow): SmsContact {
  return {
    mobilePhone: patient.mobilePhone ?? null,
    smsConsent: patient.smsConsent ?? false,
    consentAt: patient.smsConsentAt ? patient.smsConsentAt.toISOString() : null,
    consentSource: patient.smsConsentSource ?? null,
  };
}

/** What the input makes of the number and consent (unchanged where a field is left out). */
function nextSmsContact(patient: PatientRow, input: SmsContactInput): { mobilePhone: string | null; smsConsent: boolean } {
  const mobilePhone = input.mobilePhone === undefined ? patient.mobilePhone ?? null : input.mobilePhone;
  const numberChanged = mobilePhone !== (patient.mobilePhone ?? null);
  const smsConsent = input.smsConsent ?? (numberChanged ? false : patient.smsConsent ?? false);
  if (smsConsent && !mobilePhone) throw badRequest(SMS_CONSENT_NEEDS_NUMBER, [{ field: 'mobilePhone', message: SMS_CONSENT_NEEDS_NUMBER }]);
  return { mobilePhone, smsConsent };
}

/**
 * Applies the number and consent to the patient row (locked by the caller, or new); answers whether
 * anything changed. Refuses consent without a number (400 naming mobilePhone).
 */
export async function applySmsContact(
  db: Db,
  transaction: Transaction,
  patient: PatientRow,
  input: SmsContactInput,
  how: { source: SmsConsentSource; actor: Pick<AuditEntry, 'actorUserId' | 'actorKind' | 'ip' | 'requestId'>; entity?: Pick<AuditEntry, 'entityKind' | 'entityId'>; details?: Record<string, unknown> },
): Promise<boolean> {
  if (input.mobilePhone === undefined && input.smsConsent === undefined) return false;
  const before = { mobilePhone: patient.mobilePhone ?? null, smsConsent: patient.smsConsent ?? false };
  const after = nextSmsContact(patient, input);
  if (after.mobilePhone === before.mobilePhone && after.smsConsent === before.smsConsent) return false;
  const consentChanged = after.smsConsent !== before.smsConsent;
  const at = new Date();
  await patient.update({
    mobilePhone: after.mobilePhone,
    smsConsent: after.smsConsent,
    ...(consentChanged || after.smsConsent ? { smsConsentAt: at, smsConsentSource: how.source } : {}),
  }, { transaction });
  await recordAudit(db, {
    ...how.actor,
    action: 'patient.sms_consent_changed',
    entityKind: 'patient',
    entityId: patient.id,
    ...how.entity,
    details: {
      patientId: patient.id,
      ...how.details,
      source: how.source,
      at: at.toISOString(),
      old: { smsConsent: before.smsConsent, mobilePhone: maskedMobile(before.mobilePhone) },
      new: { smsConsent: after.smsConsent, mobilePhone: maskedMobile(after.mobilePhone) },
    },
  }, transaction);
  return true;
}
