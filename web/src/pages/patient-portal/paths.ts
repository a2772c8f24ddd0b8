/**
 * The Patient Portal's paths, apart from its pages so others (the physician information pages,
 * the clinic) can link them without loading them.
 */
import type { PatientProduct } from '@platform/domain';

/** The stepped order of a product (/patient-portal/order/{product}/new). */
export const patientOrderPath = (product: PatientProduct) => `/patient-portal/order/${product}/new`;

/** Where an order ends (and the payment provider sends the patient back): its number only, never its token. */
export const completePath = (orderNumber: string) => `/patient-portal/order/complete?order=${encodeURIComponent(orderNumber)}`;
