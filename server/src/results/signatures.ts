/**
 * Electronic signatures of results (issue 29, part 2; 21 CFR 11.50, 11.70, 11.200). A signer is
 * confirmed by re-entering their password (access/sign-in.ts: confirmSigner, in the API process);
 * the command then records, in its own transaction, one signature (who, name as printed, when,
 * meaning, reason) and the content hash of every result version it covers: a batch approval signs
 * once and records each result. The report prints the manifest (signaturesOfResults).
 */
import { createHash } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import { signedResultText, type SignatureMeaning, type SignatureView, type SignedResultContent } from '@platform/domain';
import type { ServerContext } from '../context';
import { toIso } from '../answer-values';
import type { ConfirmedSigner } from '../access/signer';

type Ctx = Pick<ServerContext, 'db'>;

/** SHA-256 of a result version's canonical content (domain's signedResultText). */
export const resultContentHash = (content: SignedResultContent): string => createHash('sha256').update(signedResultText(content), 'utf8').digest('hex');

/** Records one act of signing over these result versions; answers the signature's id. */
export async function recordSignature(
  ctx: Ctx, transaction: Transaction, signer: ConfirmedSigner,
  what: { meaning: SignatureMeaning; reason?: string | null; results: readonly SignedResultContent[]; at?: Date },
): Promise<number> {
  const [row] = await ctx.db.sequelize.query<{ id: string }>(
    `INSERT INTO signatures (signer_user_id, printed_name, meaning, reason, method, signed_at)
     VALUES (:userId, :printedName, :meaning, :reason, :method, :at) RETURNING id`,
    {
      replacements: { userId: signer.userId, printedName: signer.printedName, meaning: what.meaning, reason: what.reason ?? null, method: signer.method, at: what.at ?? new Date() },
      type: QueryTypes.SELECT, transaction,
    },
  );
  await ctx.db.sequelize.query(
    `INSERT INTO signed_results (signature_id, test_result_id, content_sha256)
     SELECT $1, r.id, r.hash FROM unnest($2::bigint[], $3::text[]) AS r(id, hash)`,
    { bind: [row.id, what.results.map((r) => r.resultId), what.results.map(resultContentHash)], transaction },
  );
  return Number(row.id);
}

/** The manifest of each result version: its signatures, oldest first (the correction's entry, then its approval). */
export async function signaturesOfResults(ctx: Ctx, resultIds: readonly number[], transaction?: Transaction): Promise<Map<number, SignatureView[]>> {
  const byResult = new Map<number, SignatureView[]>(resultIds.map((id) => [id, []]));
  if (!resultIds.length) return byResult;
  const rows = await ctx.db.sequelize.query<{ test_result_id: string; printed_name: string; signed_at: Date; meaning: SignatureMeaning; reason: string | null }>(
    `SELECT sr.test_result_id, s.printed_name, s.signed_at, s.meaning, s.reason
       FROM signed_results sr JOIN signatures s ON s.id = sr.signature_id
      WHERE sr.test_result_id IN (:resultIds) ORDER BY s.signed_at, s.id`,
    { replacements: { resultIds }, type: QueryTypes.SELECT, transaction },
  );
  for (const r of rows) byResult.get(Number(r.test_result_id))!.push({ printedName: r.printed_name, signedAt: toIso(r.signed_at)!, meaning: r.meaning, reason: r.reason });
  return byResult;
}
