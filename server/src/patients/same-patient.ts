/** The one rule of "the same person" in an account, for a new patient and a corrected one. */
import { QueryTypes, type Transaction } from 'sequelize';
import type { PatientExistsBody } from '@platform/domain';
import type { ServerContext } from '../context';

export const DUPLICATE_PATIENT_MESSAGE = 'A patient with this first name, last name and date of birth already exists in this account.';

/**
 * Same person: first and last name (ignoring case and surrounding spaces) and date of birth, in the
 * account; `exceptId` leaves out the patient being corrected.
 */
export async function findSamePatient(
  ctx: Pick<ServerContext, 'db'>, accountId: number, who: PatientExistsBody, transaction?: Transaction, exceptId: number | null = null,
): Promise<number | null> {
  const rows = await ctx.db.sequelize.query<{ id: number }>(
    `SELECT id FROM patients
      WHERE account_id = $1 AND lower(btrim(first_name)) = lower($2) AND lower(btrim(last_name)) = lower($3) AND date_of_birth = $4
        AND id IS DISTINCT FROM $5
      ORDER BY id LIMIT 1`,
    // Bound parameters: the name and date of birth travel apart from the SQL text.
    { bind: [accountId, who.firstName.trim(), who.lastName.trim(), who.dateOfBirth, exceptId], type: QueryTypes.SELECT, transaction },
  );
  return rows[0]?.id ?? null;
}
