/** A patient's result link: how long it works, how it locks, what the patient may change, and whose results go to the patient. */
import { catalogueEntry, isTestName } from '../catalogue/catalogue';
import type { TestName } from '../catalogue/tests';
import { Portal } from '../orders/orders';

/** A patient result link locks after this many wrong dates of birth, until a provider re-sends it. */
export const RESULT_LINK_MAX_DOB_FAILURES = 10;
/** How long a patient's result link works; after that the provider re-sends a fresh one. */
export const RESULT_LINK_VALID_DAYS = 90;

/** A result link token: 32 random bytes, hex (64 characters). */
export const RESULT_LINK_TOKEN_HEX_LENGTH = 64;

/** The longest barcode the result pages accept (kit barcodes are 14 digits; lab sample ids are longer). */
export const RESULT_BARCODE_MAX_LENGTH = 64;

/** The contact details a verified patient may change. */
export const DEMOGRAPHIC_FIELDS = ['email', 'phone', 'addressLine1', 'addressLine2', 'city', 'state', 'postalCode'] as const;
export type DemographicField = (typeof DEMOGRAPHIC_FIELDS)[number];

/**
 * Whether the patient is emailed a link to a released result: never for a Research Portal order
 * (its results go to the research provider only), never for a research test.
 */
export function resultGoesToPatient(portal: string | null | undefined, testName: string): boolean {
  if (portal === Portal.Research) return false;
  return !(isTestName(testName) && catalogueEntry(testName as TestName).research);
}
