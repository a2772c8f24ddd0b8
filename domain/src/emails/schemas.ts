/** Request schemas of the email log and the bulk email campaigns (admin portal). */
import Joi from 'joi';
import { ACCOUNT_ROLES, type AccountRole as AccountRoleT } from '../accounts/accounts';
import { MAX_PAGE_SIZE } from '../shared/constants';
import { id, paging } from '../shared/schema-fields';
import { EMAIL_STATUSES, type EmailStatus } from './emails';

const STRICT_KEYS = { allowUnknown: false } as const;

const roleSchema = Joi.string()
  .valid(...ACCOUNT_ROLES)
  .label('Role')
  .messages({ 'any.only': `{#label} must be one of ${ACCOUNT_ROLES.join(', ')}` });

export interface EmailsQuery { q: string; status: EmailStatus | null; template: string | null; page: number; pageSize: number }
/** GET admin/emails?q=&status=&template=: q matches the recipient or the subject. */
export const emailsQuery = Joi.object<EmailsQuery>({
  q: Joi.string().trim().max(254).allow('').default('').label('Search'),
  status: Joi.string().valid(...EMAIL_STATUSES).allow('', null).empty(['', null]).default(null).label('Status'),
  template: Joi.string().trim().max(60).allow('', null).empty(['', null]).default(null).label('Template'),
  ...paging,
}).options(STRICT_KEYS).label('Query');

/** Who a campaign writes to: approved provider users with an active sign-in, narrowed by these. */
export interface CampaignAudience {
  accountIds: number[];
  roles: AccountRoleT[];
  /** Only those who never signed in (the usual audience of a signup reminder). */
  neverSignedIn: boolean;
}

export interface CampaignBody { audience: CampaignAudience; preview: boolean }
/** POST admin/send-email/{campaign}: preview: true answers the audience and the email; false sends. */
export const campaignBody = Joi.object<CampaignBody>({
  audience: Joi.object<CampaignAudience>({
    accountIds: Joi.array().items(id('Account')).unique().max(MAX_PAGE_SIZE).default([]).label('Accounts'),
    roles: Joi.array().items(roleSchema).unique().default([]).label('Roles'),
    neverSignedIn: Joi.boolean().default(false).label('Never signed in'),
  }).options(STRICT_KEYS).default({ accountIds: [], roles: [], neverSignedIn: false }).label('Audience'),
  preview: Joi.boolean().default(false).label('Preview'),
}).options(STRICT_KEYS).label('Request body');
