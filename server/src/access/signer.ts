/**
 * A signer whose identity was just proven (21 CFR 11.200): made only by confirmSigner
 * (sign-in.ts, after the password is checked again); the commands that sign take one.
 */
import { SignatureMethod } from '@platform/domain';

declare const confirmed: unique symbol;

export interface ConfirmedSigner {
  userId: number;
  printedName: string;
  method: SignatureMethod;
  readonly [confirmed]: true;
}

/** For confirmSigner only (the brand says the password was checked). */
export const confirmedSigner = (userId: number, printedName: string): ConfirmedSigner =>
  ({ userId, printedName, method: SignatureMethod.Password }) as ConfirmedSigner;
