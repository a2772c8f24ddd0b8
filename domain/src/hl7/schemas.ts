/** Request schemas of HL7 interfaces: an account's connection to its EHR. */
import Joi from 'joi';
import { HL7_NAMESPACE_MAX_LENGTH } from './hl7-messages';

export interface Hl7InterfaceBody {
  enabled: boolean;
  host: string;
  port: number;
  /** MSH-5 and MSH-6 of every message sent to the account. */
  receivingApplication: string;
  receivingFacility: string;
  /** MSH-4 of the orders the account's EHR sends (ORM^O01); none: the account sends no orders. */
  sendingFacilityOfOrders: string | null;
}

/** A namespace id: letters, digits, spaces and . - _ only, never one of HL7's separators (| ^ ~ \ &). */
const namespaceId = (label: string) =>
  Joi.string().trim().min(1).max(HL7_NAMESPACE_MAX_LENGTH).pattern(/^[A-Za-z0-9 ._-]+$/, 'namespace').label(label)
    .messages({ 'string.pattern.name': '{#label} may contain letters, digits, spaces, periods, hyphens and underscores only' });

/** PUT /api/admin/accounts/{accountId}/hl7-interface */
export const hl7InterfaceBody = Joi.object<Hl7InterfaceBody>({
  enabled: Joi.boolean().required().label('Enabled'),
  host: Joi.string().trim().max(253).hostname().required().label('Host').messages({ 'string.hostname': '{#label} must be a host name or an IP address' }),
  port: Joi.number().integer().min(1).max(65535).required().label('Port'),
  receivingApplication: namespaceId('Receiving application').required(),
  receivingFacility: namespaceId('Receiving facility').required(),
  sendingFacilityOfOrders: namespaceId('Sending facility of orders').allow('', null).empty(['', null]).default(null),
}).prefs({ allowUnknown: false });
