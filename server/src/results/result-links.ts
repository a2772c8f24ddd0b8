/**
 * The patient's result link, in one place: issuing a new link (earlier ones revoked, so a locked
 * link is replaced by a fresh one) with the email that carries it, and finding the link a request
 * names. Used by the worker's notify-result processor and by the provider's re-send endpoint. The token is 32 random bytes sent only in the email; the database
 * keeps its SHA-256.
 */
import { hashToken, linkTokenHash, newLinkToken } from '../auth/tokens';
import { Op, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { RESULT_LINK_TOKEN_HEX_LENGTH, RESULT_LINK_VALID_DAYS } from '@platform/domain';
import type { Config } from '../config';
import type { OutboxRelay } from '../jobs';
import { queueEmail } from '../email/queue-email';
import { resultReadyPatientEmail } from '../email/templates';
import { resultContactsOf } from './result-contacts';
import { queueTextMessage } from '../sms/queue-sms';
import { resultReadyText } from '../sms/texts';

export type ResultLinkCtx = { db: Db; relay: OutboxRelay; config: Pick<Config, 'publicUrl' | 'brand' | 'lab' | 'labTimeZone'> };

type SampleRow = InstanceType<Db['models']['Sample']>;
type PatientRow = InstanceType<Db['models']['Patient']>;
type LinkRow = InstanceType<Db['models']['PatientResultLink']>;

/** The page a patient opens: `<publicUrl>/reports/patient_result/<barcode>?token=<token>`. */
export function patientResultUrl(config: Pick<Config, 'publicUrl'>, barcode: string, token: string): string {
  return `${config.publicUrl}/reports/patient_result/${encodeURIComponent(barcode)}?token=${token}`;
}

/**
 * Revokes the sample's earlier links and creates a new one, inside the caller's transaction.
 * Returns the new link and its token (the only time the token exists outside the email).
 */
export async function issuePatientResultLink(
  ctx: Pick<ResultLinkCtx, 'db'>,
  transaction: Transaction,
  sample: SampleRow,
  _patient: PatientRow,
  options: { createdByUserId: number | null },
): Promise<{ link: LinkRow; token: string }> {
  const { PatientResultLink } = ctx.db.models;
  await PatientResultLink.update(
    { revokedAt: new Date() },
    { where: { sampleId: sample.id, revokedAt: { [Op.is]: null } }, transaction },
  );
  const { token, tokenHash } = newLinkToken();
  const link = await PatientResultLink.create(
    {
      sampleId: sample.id, tokenHash, lockedAt: null, revokedAt: null, createdByUserId: options.createdByUserId,
      expiresAt: new Date(Date.now() + RESULT_LINK_VALID_DAYS * 24 * 3600_000),
    },
    { transaction },
  );
  return { link, token };
}

/**
 * Issues a new link and queues the patient's email carrying it, and the same link by text when the
 * patient gave a mobile number and consents (docs/sms.md). Neither holds a result or a test value:
 * only that a result is ready and the link (the page asks for the date of birth).
 * The caller checks that the patient has an email address.
 */
export async function sendPatientResultLink(
  ctx: ResultLinkCtx,
  transaction: Transaction,
  args: { sample: SampleRow; patient: PatientRow; testNames: string[]; corrected: boolean; createdByUserId: number | null },
): Promise<{ linkId: number; emailId: number; textMessageId: number | null }> {
  const { sample, patient } = args;
  if (!patient.email) throw new Error(`patient ${patient.id} has no email address`);
  if (!patient.firstName) throw new Error(`patient ${patient.id} is a research participant: results are not sent to participants`);
  const { link, token } = await issuePatientResultLink(ctx, transaction, sample, patient, { createdByUserId: args.createdByUserId });
  const url = patientResultUrl(ctx.config, sample.barcode, token);
  const email = await queueEmail(ctx, transaction, {
    to: patient.email,
    ...resultReadyPatientEmail({
      language: patient.preferredLanguage, brand: ctx.config.brand, firstName: patient.firstName, testNames: args.testNames, corrected: args.corrected,
      url,
      contacts: await resultContactsOf(ctx.db, ctx.config.lab, sample, transaction),
    }),
    entity: { kind: 'sample', id: sample.id },
    createdByUserId: args.createdByUserId,
  });
  // One link for both: a second one would revoke the email's.
  const textMessageId = await queueTextMessage(ctx, transaction, patient, resultReadyText({ language: patient.preferredLanguage, brand: ctx.config.brand, url, corrected: args.corrected }), {
    entity: { kind: 'sample', id: sample.id }, createdByUserId: args.createdByUserId,
  });
  return { linkId: link.id, emailId: email.id, textMessageId };
}

/**
 * The live (not revoked, not expired) link a request names by barcode and token, with its sample;
 * null when the pair does not match (a malformed token, a wrong barcode and an old link answer alike).
 */
export async function findResultLink(
  db: Db,
  barcode: string,
  token: string,
  options: { transaction?: Transaction; lock?: boolean } = {},
): Promise<{ link: LinkRow; sample: SampleRow } | null> {
  const tokenHash = linkTokenHash(token);
  if (!tokenHash) return null;
  const { PatientResultLink, Sample } = db.models;
  const link = await PatientResultLink.findOne({
    where: { tokenHash, revokedAt: { [Op.is]: null }, expiresAt: { [Op.gt]: new Date() } },
    transaction: options.transaction,
    lock: options.lock && options.transaction ? options.transaction.LOCK.UPDATE : undefined,
  });
  if (!link) return null;
  const sample = await Sample.findByPk(link.sampleId, { transaction: options.transaction });
  if (!sample || sample.barcode !== barcode) return null;
  return { link, sample };
}
