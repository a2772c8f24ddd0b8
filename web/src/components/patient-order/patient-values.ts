import type { OrderingPatient } from '@platform/domain';

/** The patient's details as the order form holds them (strings, as typed). */
export type PatientValues = Record<keyof OrderingPatient, string>;

export const EMPTY_PATIENT: PatientValues = {
  firstName: '', lastName: '', dateOfBirth: '', email: '', phone: '', addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '',
};

/** The treating provider when it is not the patient's to choose (an invitation, or the clinic's own MiraKind order). */
export interface FixedAccount {
  id: number;
  name: string;
}
