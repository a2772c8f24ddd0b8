/** Request schemas of HL7 interfaces: an account's connection to its EHR. */
import Joi from 'joi';
import { HL7_NAMESPACE_MAX_LENGTH } from './hl7-messages';
import { ELR_MODES, ElrMode } from './elr';

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

/**
 * A folder under the batch root: folder names of letters, digits, '.', '-' and '_' joined by '/',
 * never '..' (the admin chooses where inside the root, never a place outside it).
 */
const FOLDER = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

const hostName = Joi.string().trim().max(253).hostname().label('Host').messages({ 'string.hostname': '{#label} must be a host name or an IP address' });
const portNumber = Joi.number().integer().min(1).max(65535).label('Port');
const folderName = Joi.string().trim().max(200).pattern(FOLDER, 'folder').label('Folder')
  .messages({ 'string.pattern.name': '{#label} must be a folder inside the batch root: names of letters, digits, periods, hyphens and underscores separated by /, without ..' });

/** PUT /api/admin/accounts/{accountId}/hl7-interface */
export const hl7InterfaceBody = Joi.object<Hl7InterfaceBody>({
  enabled: Joi.boolean().required().label('Enabled'),
  host: hostName.required(),
  port: portNumber.required(),
  receivingApplication: namespaceId('Receiving application').required(),
  receivingFacility: namespaceId('Receiving facility').required(),
  sendingFacilityOfOrders: namespaceId('Sending facility of orders').allow('', null).empty(['', null]).default(null),
}).prefs({ allowUnknown: false });

export interface ElrSettingsBody {
  enabled: boolean;
  mode: ElrMode;
  /** MLLP: where public health listens. */
  host: string | null;
  port: number | null;
  /** Batch file: the folder, under the configured ELR batch root, the day's file is written to. */
  folder: string | null;
  receivingApplication: string;
  receivingFacility: string;
}

/** PUT /api/admin/public-health/elr: MLLP needs a host and a port, a batch file its folder. */
export const elrSettingsBody = Joi.object<ElrSettingsBody>({
  enabled: Joi.boolean().required().label('Enabled'),
  mode: Joi.string().valid(...ELR_MODES).required().label('Mode'),
  host: Joi.when('mode', {
    is: ElrMode.Mllp,
    then: hostName.required(),
    otherwise: hostName.allow('', null).empty(['', null]).default(null),
  }),
  port: Joi.when('mode', {
    is: ElrMode.Mllp,
    then: portNumber.required(),
    otherwise: portNumber.allow('', null).empty(['', null]).default(null),
  }),
  folder: Joi.when('mode', {
    is: ElrMode.BatchFile,
    then: folderName.required(),
    otherwise: folderName.allow('', null).empty(['', null]).default(null),
  }),
  receivingApplication: namespaceId('Receiving application').required(),
  receivingFacility: namespaceId('Receiving facility').required(),
}).prefs({ allowUnknown: false });
