/** What the insurance plan and financial assistance endpoints answer, as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { ACCESS_STATUSES } from '../access/access';

/** GET insurance-plans (patient ordering reads active ones) and admin/insurance-plans (all). */
export const InsurancePlanRow = s.object({
  id: s.integer,
  name: s.string,
  payerCode: s.nullable(s.string),
  isActive: s.boolean,
});
export type InsurancePlanRow = s.Infer<typeof InsurancePlanRow>;

/** GET admin/patients/financial-assistance (rows). */
export const FinancialAidRow = s.object({
  id: s.integer,
  patientId: s.integer,
  patientName: s.string,
  patientEmail: s.nullable(s.string),
  dateOfBirth: s.string,
  status: s.oneOf(ACCESS_STATUSES),
  approvedPriceCents: s.nullable(s.integer),
  validUntil: s.nullable(s.string),
  /** Valid today: approved and not past its end date. */
  current: s.boolean,
  note: s.nullable(s.string),
  createdBy: s.nullable(s.string),
  createdAt: s.string,
});
export type FinancialAidRow = s.Infer<typeof FinancialAidRow>;

/** The answer to a grant: the record, and its assistance code shown this once (only its hash is kept). */
export const CreatedFinancialAid = s.extend(FinancialAidRow, {
  /** ABCDE-23456: what the patient enters at payment. */
  assistanceCode: s.string,
  /** Where the code was emailed; null when the patient has no email on file (the admin gives it to them). */
  codeEmailedTo: s.nullable(s.string),
});
export type CreatedFinancialAid = s.Infer<typeof CreatedFinancialAid>;

/** GET insurance-plans: the active plans of the admin's list. */
export const InsurancePlanOption = s.object({ id: s.integer, name: s.string });
export type InsurancePlanOption = s.Infer<typeof InsurancePlanOption>;

/** The payment provider's webhook: received (once: a repeated event id is a duplicate), and whether it changed the order's payment status. */
export const PaymentEventAnswer = s.object({
  received: s.literal(true),
  duplicate: s.optional(s.literal(true)),
  /** Whether the event changed the order's payment status. */
  applied: s.optional(s.boolean),
});
export type PaymentEventAnswer = s.Infer<typeof PaymentEventAnswer>;
