/** Financial assistance: when a record counts, its default price, and the assistance code a patient enters at payment. */
import { AccessStatus } from '../access/access';
import { todayDataDate } from '../shared/dates';

/**
 * The approved price a new financial-aid record starts with: the reduced price of the financial
 * assistance program (SPEC §9 "a general limit of 100", read in SPEC-NOTES as 100 USD), in cents.
 */
export const FINANCIAL_AID_DEFAULT_PRICE_CENTS = 100_00;

/**
 * A financial-assistance record counts for an order while it is approved and its last day (a data
 * date, YYYY-MM-DD) is today or later: the one rule the admin's list and patient ordering share.
 */
export function isCurrentAid(record: { status: string; validUntil: string | null }, today: string = todayDataDate()): boolean {
  return record.status === AccessStatus.Approved && record.validUntil !== null && record.validUntil >= today;
}

/**
 * The assistance code: what proves at payment that the person ordering is the person the aid was
 * granted to (a name and a date of birth are on every requisition, so they prove nothing). The
 * admin's grant makes one and emails it to the patient; only its hash is kept. Ten characters of
 * an alphabet without look-alikes (no I, L, O, 0, 1), written in two groups of five.
 */
export const AID_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const AID_CODE_LENGTH = 10;
export const AID_CODE_PATTERN = new RegExp(`^[${AID_CODE_ALPHABET}]{${AID_CODE_LENGTH}}$`);

/** A code as typed (any case, with or without the dash or spaces) in the form it is checked in. */
export function normalizeAidCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '');
}

/** A code as shown and emailed: ABCDE-23456. */
export function formatAidCode(code: string): string {
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}
