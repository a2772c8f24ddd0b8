/**
 * Orders from an account's EHR as HL7 v2 ORM^O01 (issue 28, item 3), answered with an ACK. The
 * sending facility (MSH-4) names the account (its interface's `sendingFacilityOfOrders`, enabled);
 * the patient is matched by the sending system's patient id (PID-3, kept as the medical record
 * number) and identity, never on a name alone, and never overwritten: an id that names another
 * person is refused; the physician by NPI among the account's (ORC-12, else OBR-16); each OBR-4
 * through the code table, with the clinical portal's catalogue rule; the specimen (OBR-15) through
 * the specimen codes. The order is written as the clinic's is (writeProviderOrder). A message
 * control id seen before from the account is answered as it was the first time and creates nothing.
 * An electronic order from a configured interface stands for the clinic's attestations (the
 * interface agreement), and the audit says it came by HL7.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import type { Hl7Message, Hl7Segment } from '@medplum/core';
import {
  CodeSystemKey, HL7V2_CODING_SYSTEMS, Hl7MessageReason, Hl7MessageStatus, isDataDate, orderTestsSchema, ORDER_ATTESTATIONS, Portal, SAMPLE_TYPES,
  specimenTypeCode, testCodes, testsWithCode, type SampleType, type TestName,
} from '@platform/domain';
import type { ServerContext } from '../context';
import type { Caller } from '../audit';
import { buildAck, componentText, Hl7ErrorCode, type AckAnswer, type ErrorLocation } from '../hl7';
import { inOrderTransaction, writeProviderOrder } from './orders';
import { enrolInProjects } from '../research/study-responses';

type Ctx = Pick<ServerContext, 'db' | 'relay'>;

/** A refusal naming the field and the reason (AE: the message is understood, its content refused; AR: not for us at all). */
class OrderRefusal extends Error {
  constructor(readonly code: 'AE' | 'AR', readonly location: ErrorLocation | null, readonly hl7Error: Hl7ErrorCode, reason: string) {
    super(reason);
  }
}

const refuse = (location: ErrorLocation | null, hl7Error: Hl7ErrorCode, reason: string, code: 'AE' | 'AR' = 'AE') => new OrderRefusal(code, location, hl7Error, reason);
const at = (segment: string, field: number, component?: number, sequence?: number): ErrorLocation => ({ segment, field, ...(component ? { component } : {}), ...(sequence ? { sequence } : {}) });

const SEX_CODES = new Set(['M', 'F', 'O', 'U']);

interface OrderAccount {
  accountId: number;
  facility: string;
}

/** The account whose EHR sends as this facility (MSH-4.1), with its interface enabled. */
async function accountOfFacility(ctx: Ctx, facility: string): Promise<OrderAccount | null> {
  if (!facility) return null;
  const [row] = await ctx.db.sequelize.query<{ account_id: string }>(
    `SELECT i.account_id FROM hl7_interfaces i JOIN accounts a ON a.id = i.account_id AND a.is_active
      WHERE lower(i.sending_facility_of_orders) = lower(:facility) AND i.enabled`,
    { replacements: { facility }, type: QueryTypes.SELECT },
  );
  return row ? { accountId: Number(row.account_id), facility } : null;
}

/** The message header's checks: an ORM^O01 of HL7 v2, for production, with a control id. */
function checkHeader(message: Hl7Message): string {
  const msh = message.getSegment('MSH');
  if (componentText(msh, 9, 1) !== 'ORM' || componentText(msh, 9, 2) !== 'O01') {
    throw refuse(at('MSH', 9), Hl7ErrorCode.UnsupportedMessageType, 'MSH-9: this interface takes orders as ORM^O01 only', 'AR');
  }
  if (!/^2\.\d/.test(componentText(msh, 12))) throw refuse(at('MSH', 12), Hl7ErrorCode.UnsupportedVersionId, 'MSH-12: HL7 version 2.x is required', 'AR');
  if (componentText(msh, 11) !== 'P') throw refuse(at('MSH', 11), Hl7ErrorCode.UnsupportedProcessingId, 'MSH-11: only production orders (P) are taken', 'AR');
  const controlId = componentText(msh, 10);
  if (!controlId) throw refuse(at('MSH', 10), Hl7ErrorCode.RequiredFieldMissing, 'MSH-10: the message control id is required', 'AR');
  return controlId;
}

interface OrderedPatient {
  sendingId: string;
  familyName: string;
  givenName: string;
  dateOfBirth: string;
  sex: string | null;
  address: { line1: string; line2: string; city: string; state: string; postalCode: string; country: string } | null;
}

/** PID-3 (the sending system's id), PID-5 (family and given names), PID-7 (date of birth), PID-8, PID-11. */
function patientOf(message: Hl7Message): OrderedPatient {
  const pid = message.getSegment('PID');
  if (!pid) throw refuse(at('PID', 1), Hl7ErrorCode.SegmentSequenceError, 'PID: the patient segment is missing');
  const sendingId = componentText(pid, 3, 1).trim();
  if (!sendingId) throw refuse(at('PID', 3, 1), Hl7ErrorCode.RequiredFieldMissing, "PID-3: the patient's identifier is required");
  const familyName = componentText(pid, 5, 1).trim();
  const givenName = componentText(pid, 5, 2).trim();
  if (!familyName) throw refuse(at('PID', 5, 1), Hl7ErrorCode.RequiredFieldMissing, "PID-5: the patient's family name is required");
  if (!givenName) throw refuse(at('PID', 5, 2), Hl7ErrorCode.RequiredFieldMissing, "PID-5: the patient's given name is required");
  const birth = componentText(pid, 7, 1).trim();
  if (!birth) throw refuse(at('PID', 7), Hl7ErrorCode.RequiredFieldMissing, "PID-7: the patient's date of birth is required");
  const dateOfBirth = /^\d{8}/.test(birth) ? `${birth.slice(0, 4)}-${birth.slice(4, 6)}-${birth.slice(6, 8)}` : '';
  if (!isDataDate(dateOfBirth)) throw refuse(at('PID', 7), Hl7ErrorCode.DataTypeError, `PID-7: "${birth}" is not a date (YYYYMMDD)`);
  const sex = componentText(pid, 8).trim() || null;
  if (sex && !SEX_CODES.has(sex)) throw refuse(at('PID', 8), Hl7ErrorCode.TableValueNotFound, `PID-8: "${sex}" is not a sex of table 0001 (M, F, O, U)`);
  const line1 = componentText(pid, 11, 1).trim();
  const address = line1
    ? {
      line1, line2: componentText(pid, 11, 2).trim(), city: componentText(pid, 11, 3).trim(), state: componentText(pid, 11, 4).trim(),
      postalCode: componentText(pid, 11, 5).trim(), country: componentText(pid, 11, 6).trim(),
    }
    : null;
  return { sendingId, familyName, givenName, dateOfBirth, sex, address };
}

/** The tests an order code names (CE-1) in the coding system named (CE-3: LN, L …; any when not given). */
function orderedTestsWithCode(code: string, systemName: string): TestName[] {
  const systems = (Object.keys(HL7V2_CODING_SYSTEMS) as CodeSystemKey[]).filter((k) => HL7V2_CODING_SYSTEMS[k] === systemName);
  return testsWithCode(code, null).filter((name) => testCodes(name).some((c) => c.code === code && (!systemName || systems.includes(c.system))));
}

/** The test of each OBR-4 (LOINC or the lab's code), checked as the clinical portal checks an order's tests. */
function testsOf(obrs: Hl7Segment[]): TestName[] {
  if (!obrs.length) throw refuse(at('OBR', 4), Hl7ErrorCode.SegmentSequenceError, 'OBR: the order names no test');
  const tests = obrs.map((obr, i) => {
    const code = componentText(obr, 4, 1).trim();
    const systemName = componentText(obr, 4, 3).trim();
    const [test] = code ? orderedTestsWithCode(code, systemName) : [];
    if (!test) throw refuse(at('OBR', 4, 1, i + 1), Hl7ErrorCode.TableValueNotFound, `OBR-4: "${code}" is not a test code of this lab`);
    return test;
  });
  const { error } = orderTestsSchema(Portal.Clinical).validate(tests);
  if (error) throw refuse(at('OBR', 4), Hl7ErrorCode.TableValueNotFound, `OBR-4: ${error.details[0].message}`);
  return tests;
}

/** OBR-15 (SPS-1): the specimen, by its SNOMED CT code or the lab's name of it; required. */
function sampleTypeOf(obr: Hl7Segment): SampleType {
  const code = componentText(obr, 15, 1).trim();
  const text = componentText(obr, 15, 2).trim().toLowerCase();
  const match = SAMPLE_TYPES.find((t) => (code && specimenTypeCode(t)?.code === code) || (text && t.toLowerCase() === text) || t.toLowerCase() === code.toLowerCase());
  if (!match) {
    throw refuse(at('OBR', 15, 1), code || text ? Hl7ErrorCode.TableValueNotFound : Hl7ErrorCode.RequiredFieldMissing,
      code || text ? `OBR-15: "${code || text}" is not a specimen this lab takes (${SAMPLE_TYPES.join(', ')})` : 'OBR-15: the specimen source is required');
  }
  return match;
}

/** The ordering physician: ORC-12's NPI (else OBR-16's), one of the account's physicians. */
async function physicianOf(ctx: Ctx, accountId: number, message: Hl7Message): Promise<number> {
  const fromOrc = componentText(message.getSegment('ORC'), 12, 1).trim();
  const npi = fromOrc || componentText(message.getSegment('OBR'), 16, 1).trim();
  const where = fromOrc ? at('ORC', 12, 1) : at('OBR', 16, 1);
  if (!npi) throw refuse(where, Hl7ErrorCode.RequiredFieldMissing, "ORC-12: the ordering provider's NPI is required");
  const physician = await ctx.db.models.Physician.findOne({ where: { accountId, npi } });
  if (!physician) throw refuse(where, Hl7ErrorCode.UnknownKeyIdentifier, `${where.segment}-${where.field}: no physician with NPI ${npi} orders for this account`);
  return physician.id;
}

/** The account's patient with this sending id, when the identity agrees; a new one when none has it. */
async function patientIdFor(ctx: Ctx, transaction: Transaction, accountId: number, p: OrderedPatient): Promise<number> {
  const m = ctx.db.models;
  const known = await m.Patient.findOne({ where: { accountId, medicalRecordNumber: p.sendingId, studyId: null }, transaction });
  if (known) {
    const same = (known.lastName ?? '').toLowerCase() === p.familyName.toLowerCase() && known.dateOfBirth === p.dateOfBirth;
    if (!same) throw refuse(at('PID', 3, 1), Hl7ErrorCode.DuplicateKeyIdentifier, `PID-3: patient id ${p.sendingId} belongs to another person in this account`);
    return known.id;
  }
  const created = await m.Patient.create({
    accountId, firstName: p.givenName, lastName: p.familyName, dateOfBirth: p.dateOfBirth, sex: p.sex, medicalRecordNumber: p.sendingId,
    addressLine1: p.address?.line1 || null, addressLine2: p.address?.line2 || null, city: p.address?.city || null, state: p.address?.state || null,
    postalCode: p.address?.postalCode || null, country: p.address?.country ? p.address.country.slice(0, 2).toUpperCase() : null,
  }, { transaction });
  return created.id;
}

/** How an earlier message with this control id was answered, if one came. */
async function earlierAnswer(ctx: Ctx, accountId: number, controlId: string): Promise<{ ack_code: string; ack_text: string | null } | null> {
  const [row] = await ctx.db.sequelize.query<{ ack_code: string; ack_text: string | null }>(
    'SELECT ack_code, ack_text FROM hl7_messages WHERE account_id = :accountId AND direction = :in AND control_id = :controlId',
    { replacements: { accountId, controlId, in: 'in' }, type: QueryTypes.SELECT },
  );
  return row ?? null;
}

async function logInbound(
  ctx: Ctx, transaction: Transaction | undefined, accountId: number, controlId: string, answer: { code: string; text: string }, ids: { sampleId?: number; orderId?: number } = {},
): Promise<void> {
  await ctx.db.sequelize.query(
    `INSERT INTO hl7_messages (account_id, direction, control_id, message_type, reason, sample_id, order_id, status, attempts, last_attempt_at, ack_code, ack_text, acknowledged_at)
     VALUES (:accountId, 'in', :controlId, 'ORM^O01', :reason, :sampleId, :orderId, :status, 1, now(), :code, :text, now())
     ON CONFLICT (account_id, direction, control_id) DO NOTHING`,
    {
      replacements: {
        accountId, controlId, reason: Hl7MessageReason.Order, sampleId: ids.sampleId ?? null, orderId: ids.orderId ?? null,
        status: answer.code === 'AA' ? Hl7MessageStatus.Acknowledged : Hl7MessageStatus.Failed, code: answer.code, text: answer.text,
      },
      transaction,
    },
  );
}

const ackOf = (message: Hl7Message, code: string, text: string | null, refusal?: OrderRefusal): Hl7Message => {
  if (code === 'AA') return buildAck(message, { code: 'AA', text: text ?? undefined });
  const answer: AckAnswer = {
    code: code === 'AR' ? 'AR' : 'AE',
    error: { location: refusal?.location ?? null, hl7Error: refusal?.hl7Error ?? Hl7ErrorCode.ApplicationInternalError, reason: text ?? 'Refused' },
  };
  return buildAck(message, answer);
};

/** The listener's handler: one ORM^O01 in, its ACK out (AA with the new order, or AE/AR naming the field). */
export async function receiveHl7Order(ctx: Ctx, message: Hl7Message): Promise<Hl7Message> {
  let account: OrderAccount | null = null;
  let controlId = '';
  try {
    controlId = checkHeader(message);
    account = await accountOfFacility(ctx, componentText(message.getSegment('MSH'), 4, 1).trim());
    if (!account) throw refuse(at('MSH', 4), Hl7ErrorCode.UnknownKeyIdentifier, 'MSH-4: no account takes orders from this sending facility', 'AR');
    const earlier = await earlierAnswer(ctx, account.accountId, controlId);
    if (earlier) return ackOf(message, earlier.ack_code, earlier.ack_text);
    const patient = patientOf(message);
    const obrs = message.getAllSegments('OBR');
    const tests = testsOf(obrs);
    const sampleType = sampleTypeOf(obrs[0]);
    const physicianId = await physicianOf(ctx, account.accountId, message);
    const { accountId, facility } = account;
    const caller: Caller & { accountId: number } = { userId: null, kind: 'system', accountId, ip: null, requestId: `hl7:${controlId}` };
    const text = await inOrderTransaction(ctx, async (transaction) => {
      const patientId = await patientIdFor(ctx, transaction, accountId, patient);
      const created = await writeProviderOrder(ctx, transaction, caller, {
        patientId, physicianId, portal: Portal.Clinical, tests, sampleType,
        attestations: Object.fromEntries(ORDER_ATTESTATIONS.map((a) => [a.key, true])),
        via: { interface: 'hl7', sendingFacility: facility, controlId },
      });
      await enrolInProjects(ctx, transaction, caller, patientId, tests);
      const answer = `Order ${created.order.orderNumber} created, sample ${created.sample.barcode}`;
      await logInbound(ctx, transaction, accountId, controlId, { code: 'AA', text: answer }, { sampleId: created.sample.id, orderId: created.order.id });
      return answer;
    });
    return ackOf(message, 'AA', text);
  } catch (err) {
    if (!(err instanceof OrderRefusal)) throw err;
    // A refusal is remembered for its control id (a resend gets the same answer); one before the account is known is not.
    if (account && controlId) await logInbound(ctx, undefined, account.accountId, controlId, { code: err.code, text: err.message });
    return ackOf(message, err.code, err.message, err);
  }
}
