/**
 * The test requisition form of a sample (GET sample/{barcode}/pdf_order): the latest rendered
 * version for a provider of the sample's account, or "not ready" while its render job is pending,
 * or (409 awaiting_sign_off) for a patient's own order its physician has not signed off yet.
 * The optional date of birth must match the patient's, so the endpoint cannot be used to probe.
 */
import { QueryTypes } from 'sequelize';
import { DocumentType, JobStatus, REQUISITION_AWAITS_SIGN_OFF_MESSAGE, requisitionAwaitsSignOff, type AccountSummary } from '@platform/domain';
import type { ServerContext } from '../context';
import { dataDate } from '../answer-values';
import { auditActor, type Caller, recordAudit } from '../audit';
import { Conflict, notFound } from '../errors';
import { readFileContent } from '../files';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

export const REQUISITION_NOT_READY_MESSAGE = 'The requisition form is still being prepared. Try again in a moment.';

export interface RequisitionFile {
  name: string;
  content: Buffer;
}

export async function downloadRequisitionForm(
  ctx: Ctx,
  /** The accounts the caller may act in (the session's). */
  accounts: AccountSummary[],
  barcode: string,
  dob: string | undefined,
  caller: Caller,
): Promise<RequisitionFile> {
  const m = ctx.db.models;
  const accountIds = accounts.map((a) => a.id);
  const sample = accountIds.length
    ? await m.Sample.findOne({
      where: { barcode, accountId: accountIds },
      include: [
        { model: m.Patient, as: 'patient', attributes: ['id', 'dateOfBirth'] },
        { model: m.Order, as: 'order', attributes: ['id', 'origin', 'signedOffAt', 'cancelledAt'] },
      ],
    })
    : null;
  // The same answer for "no such sample", "not yours" and "wrong date of birth".
  if (!sample || (dob !== undefined && dataDate(sample.patient!.dateOfBirth) !== dob)) {
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'document.download_refused', entityKind: 'sample', entityId: sample?.id ?? null,
      details: { documentType: DocumentType.TestRequisitionForm, reason: sample ? 'dob_mismatch' : 'not_found' },
    });
    throw notFound('Sample not found');
  }

  const document = await m.SampleDocument.findOne({
    where: { sampleId: sample.id, type: DocumentType.TestRequisitionForm },
    order: [['version', 'DESC']],
  });
  if (!document) {
    // A patient's own order before its physician signed it off: nothing is rendered yet, and it says why.
    if (sample.order && requisitionAwaitsSignOff(sample.order)) throw new Conflict(REQUISITION_AWAITS_SIGN_OFF_MESSAGE, undefined, 'awaiting_sign_off');
    const [pending] = await ctx.db.sequelize.query<{ id: number }>(
      `SELECT id FROM jobs WHERE name = 'render-pdf' AND status = :pending
          AND payload->>'documentType' = :type AND (payload->>'sampleId')::bigint = :sampleId
        ORDER BY id DESC LIMIT 1`,
      { replacements: { pending: JobStatus.Pending, type: DocumentType.TestRequisitionForm, sampleId: sample.id }, type: QueryTypes.SELECT },
    );
    if (pending) throw new Conflict(REQUISITION_NOT_READY_MESSAGE, undefined, 'not_ready');
    throw notFound('No requisition form exists for this sample');
  }
  const file = await readFileContent(ctx.db, document.fileId);
  if (!file) throw notFound('No requisition form exists for this sample');
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'document.downloaded', entityKind: 'sample', entityId: sample.id,
    details: { accountId: sample.accountId, documentType: DocumentType.TestRequisitionForm, documentId: document.id, version: document.version },
  });
  return { name: `test-requisition-${sample.barcode}.pdf`, content: file.content };
}
