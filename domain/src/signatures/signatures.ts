/**
 * Electronic signatures (21 CFR 11.50, 11.70, 11.200; issue 29, part 2): a lab user approving
 * results, or entering a correction, signs by re-entering their password. The signature states its
 * meaning, names the signer as printed, and is bound to what was signed: each result version's
 * content hash. Nothing changes or deletes a signature (the database refuses it).
 */
import { valuesOf } from '../shared/values';
import * as s from '../shared/shapes';

/** What a signature means, shown to the signer before they sign and printed on the report. */
export const SignatureMeaning = {
  Release: 'Reviewed and approved for release',
  Correction: 'Corrected result entered for review',
} as const;
export type SignatureMeaning = (typeof SignatureMeaning)[keyof typeof SignatureMeaning];
export const SIGNATURE_MEANINGS = valuesOf(SignatureMeaning);

/** How the signer proved who they are (a passkey comes with two-factor sign-in). */
export const SignatureMethod = { Password: 'password' } as const;
export type SignatureMethod = (typeof SignatureMethod)[keyof typeof SignatureMethod];
export const SIGNATURE_METHODS = valuesOf(SignatureMethod);

/**
 * What a result version's signature is bound to: its content, in a canonical text (keys in this
 * order, JSON) that the server hashes (SHA-256). Changing any of these after signing breaks the match.
 */
export interface SignedResultContent {
  resultId: number;
  version: number;
  sampleBarcode: string;
  test: string;
  value: string;
  enteredByUserId: number;
  enteredAt: string;
  correctionReason: string | null;
}

export function signedResultText(c: SignedResultContent): string {
  return JSON.stringify([c.resultId, c.version, c.sampleBarcode, c.test, c.value, c.enteredByUserId, c.enteredAt, c.correctionReason]);
}

/** A signature as a report or a page shows it (the manifest). */
export const SignatureView = s.object({
  printedName: s.string,
  signedAt: s.string,
  meaning: s.oneOf(SIGNATURE_MEANINGS),
  /** The correction's reason, for a correction. */
  reason: s.nullable(s.string),
});
export type SignatureView = s.Infer<typeof SignatureView>;
