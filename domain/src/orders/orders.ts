/** Orders: where they come from (the spec's test origins and portals), order ids, and the tests an order holds. Plain values, no joi. */
import { valuesOf } from '../shared/values';

export const TestOrigin = {
  LabOrdered: 'Lab Ordered',
  PatientOrdered: 'Patient Ordered',
  ProviderOrdered: 'Provider Ordered',
} as const;
export type TestOrigin = (typeof TestOrigin)[keyof typeof TestOrigin];
export const TEST_ORIGINS = valuesOf(TestOrigin);

export const Portal = {
  Research: 'Research Portal',
  Clinical: 'Clinical Portal',
  Patient: 'Patient Portal',
  LabToolbox: 'Lab Toolbox',
} as const;
export type Portal = (typeof Portal)[keyof typeof Portal];
export const PORTALS = valuesOf(Portal);

/** The status a test row starts with (tests.status is free text: the lab's own workflow words). */
export const INITIAL_TEST_STATUS = 'Ordered';

/** Order id: `RF_` or `RG_` then 9 digits, or `RPD` then 10 digits. */
export const ORDER_ID_PATTERN = /^(?:R[FG]_\d{9}|RPD\d{10})$/;

/** True when the value is an order id (RF_/RG_ + 9 digits, or RPD + 10 digits). */
export function isOrderId(value: string): boolean {
  return ORDER_ID_PATTERN.test(value);
}

/** The most tests one clinic order (one kit) may carry. */
export const ORDER_MAX_TESTS = 5;

/**
 * Whether an order's kit comes with a requisition naming its patient: every order a clinic, a
 * research provider, an EHR or a patient places does; a sample the lab registers itself does not.
 * Intake asks the technician to confirm the tube's name and date of birth against it.
 */
export function orderHasRequisition(origin: string): boolean {
  return origin !== TestOrigin.LabOrdered;
}
