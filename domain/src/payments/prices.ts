/** What a patient pays for an order, the MiraKind donation part, and how amounts read. */
import { canOrderIn, catalogueEntry } from '../catalogue/catalogue';
import { TestName } from '../catalogue/tests';
import { Portal } from '../orders/orders';

/** The share of a MiraKind order's price that is a tax-deductible donation. */
export const MIRAKIND_DONATION_SHARE = 0.2;

/** The combined patient order of PROSTOX ultra and PROSTOX CFRT (SPEC §9 "both ... 1000"; assistance 100 each). */
export const PROSTOX_BOTH = {
  tests: [TestName.ProstoxUltra, TestName.ProstoxCfrt] as readonly TestName[],
  selfPayCents: 1000_00,
  assistanceCents: 200_00,
} as const;

/**
 * What a patient pays for a Patient Portal order, in cents. A patient order is one test the
 * Patient Portal may order, or PROSTOX ultra together with PROSTOX CFRT; anything else throws a
 * RangeError (callers check the order first and show the message).
 */
export function patientPriceCents(names: readonly TestName[], options: { financialAssistance: boolean }): number {
  const unique = [...new Set(names)];
  if (names.length === 0) throw new RangeError('A patient order needs at least one test');
  if (unique.length !== names.length) throw new RangeError('A patient order lists each test once');
  for (const name of unique) {
    if (!canOrderIn(name, Portal.Patient)) throw new RangeError(`${name} cannot be ordered through the Patient Portal`);
  }
  if (unique.length === 1) {
    const entry = catalogueEntry(unique[0]);
    const price = options.financialAssistance ? entry.assistanceCents : entry.selfPayCents;
    if (price === null) throw new RangeError(`${entry.name} has no patient price`);
    return price;
  }
  const both = unique.length === PROSTOX_BOTH.tests.length && PROSTOX_BOTH.tests.every((t) => unique.includes(t));
  if (!both) throw new RangeError('A patient order is one test, or PROSTOX ultra together with PROSTOX CFRT');
  return options.financialAssistance ? PROSTOX_BOTH.assistanceCents : PROSTOX_BOTH.selfPayCents;
}

/** The tax-deductible donation part of a MiraKind order price (20%), in whole cents, rounded half up. */
export function mirakindDonationCents(priceCents: number): number {
  if (!Number.isInteger(priceCents) || priceCents < 0) throw new RangeError('A price is a whole, non-negative number of cents');
  return Math.round(priceCents * MIRAKIND_DONATION_SHARE);
}

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** An amount in cents as US dollars, as receipts and order pages print it: $1,000.00. */
export function formatUsd(cents: number): string {
  return USD.format(cents / 100);
}
