/** What the insurance plan and financial assistance endpoints answer, as JSON. Types only. */
import type { AccessStatus } from '../access/access';

/** GET insurance-plans (patient ordering reads active ones) and admin/insurance-plans (all). */
export interface InsurancePlanRow {
  id: number;
  name: string;
  payerCode: string | null;
  isActive: boolean;
}

/** GET admin/patients/financial-assistance (rows). */
export interface FinancialAidRow {
  id: number;
  patientId: number;
  patientName: string;
  patientEmail: string | null;
  dateOfBirth: string;
  status: AccessStatus;
  approvedPriceCents: number | null;
  validUntil: string | null;
  /** Valid today: approved and not past its end date. */
  current: boolean;
  note: string | null;
  createdBy: string | null;
  createdAt: string;
}

/** The answer to a grant: the record, and its assistance code shown this once (only its hash is kept). */
export interface CreatedFinancialAid extends FinancialAidRow {
  /** ABCDE-23456: what the patient enters at payment. */
  assistanceCode: string;
  /** Where the code was emailed; null when the patient has no email on file (the admin gives it to them). */
  codeEmailedTo: string | null;
}

/** GET insurance-plans: the active plans of the admin's list. */
export interface InsurancePlanOption { id: number; name: string }
