/** Request schemas of insurance plans and financial assistance (admin portal). */
import Joi from 'joi';
import { ACCOUNT_NAME_MAX_LENGTH } from '../accounts/accounts';
import { REASON_MAX_LENGTH } from '../shared/constants';
import { dataDate, id, optionalText, paging, personName, text } from '../shared/schema-fields';
import { emailSchema } from '../shared/schemas';

const STRICT_KEYS = { allowUnknown: false } as const;

export interface InsurancePlanBody { name: string; payerCode: string | null; isActive: boolean }
/** POST admin/insurance-plans/create and admin/insurance-plans/{id}/update (isActive false retires a plan). */
export const insurancePlanBody = Joi.object<InsurancePlanBody>({
  name: text('Plan name', ACCOUNT_NAME_MAX_LENGTH).required(),
  payerCode: optionalText('Payer code', 40),
  isActive: Joi.boolean().default(true).label('Active'),
}).options(STRICT_KEYS).label('Request body');

export interface CreateFinancialAidBody {
  /** An existing patient, or the identity of a new one (a patient ordering for themselves later). */
  patientId?: number;
  patient?: { firstName: string; lastName: string; dateOfBirth: string; email: string };
  approvedPriceCents: number;
  validUntil: string;
  note: string | null;
}

/** POST admin/patients/financial-assistance/create */
export const createFinancialAidBody = Joi.object<CreateFinancialAidBody>({
  patientId: id('Patient'),
  patient: Joi.object({
    firstName: personName('First name').required(),
    lastName: personName('Last name').required(),
    dateOfBirth: dataDate('Date of birth').required(),
    email: emailSchema.required(),
  }).options(STRICT_KEYS).label('Patient'),
  approvedPriceCents: Joi.number().integer().min(0).max(1_000_000).label('Approved price').required(),
  validUntil: dataDate('Valid until').required(),
  note: optionalText('Note', REASON_MAX_LENGTH),
})
  .xor('patientId', 'patient')
  .messages({ 'object.xor': 'Choose an existing patient or enter a new one, not both', 'object.missing': 'Choose a patient or enter a new one' })
  .options(STRICT_KEYS)
  .label('Request body');

export interface FinancialAidQuery { patientId: number | null; page: number; pageSize: number }
/**
 * GET admin/patients/financial-assistance?patientId=: newest first, or one patient's. No name in
 * the query: names stay out of URLs; the page finds the patient with POST admin/patients/search.
 */
export const financialAidQuery = Joi.object<FinancialAidQuery>({
  patientId: id('Patient').allow('', null).empty(['', null]).default(null),
  ...paging,
}).options(STRICT_KEYS).label('Query');
