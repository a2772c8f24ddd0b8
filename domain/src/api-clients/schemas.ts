/** Request schemas of API clients: creating one for an account. */
import Joi from 'joi';
import { text } from '../shared/schema-fields';
import { API_CLIENT_NAME_MAX_LENGTH, WEBHOOK_URL_MAX_LENGTH } from './api-clients';

export interface CreateApiClientBody {
  name: string;
  /** Where result notices are POSTed (Standard Webhooks); none: the client only reads. */
  webhookUrl: string | null;
}

/** POST provider-clinic/{accountId}/api-clients (and the admin's for any account) */
export const createApiClientBody = Joi.object<CreateApiClientBody>({
  name: text('Name', API_CLIENT_NAME_MAX_LENGTH).required(),
  webhookUrl: Joi.string().trim().max(WEBHOOK_URL_MAX_LENGTH).uri({ scheme: ['https', 'http'] }).allow('', null).empty(['', null]).default(null)
    .label('Webhook URL')
    .messages({ 'string.uri': '{#label} must be an https:// address', 'string.uriCustomScheme': '{#label} must be an https:// address' }),
}).prefs({ allowUnknown: false });
