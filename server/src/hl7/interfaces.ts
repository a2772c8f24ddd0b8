/**
 * An account's HL7 v2 interface (issue 28): where its results go as ORU^R01 (host, port, the
 * receiving application and facility of MSH-5/6) and the MSH-4 its EHR's orders arrive under. The
 * lab's admin sets it; every change is audited with the old and new values.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import type { Hl7InterfaceBody, Hl7InterfaceView } from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflictOnDuplicate, notFound } from '../errors';
import { toIso } from '../answer-values';

interface InterfaceRow {
  enabled: boolean;
  host: string;
  port: number;
  receiving_application: string;
  receiving_facility: string;
  sending_facility_of_orders: string | null;
  updated_at: Date;
}

/** Where a message to the account goes (an enabled interface only). */
export interface Hl7Destination {
  host: string;
  port: number;
  receivingApplication: string;
  receivingFacility: string;
}

type Ctx = Pick<ServerContext, 'db'>;

const INTERFACE_COLUMNS = 'enabled, host, port, receiving_application, receiving_facility, sending_facility_of_orders, updated_at';

const bodyOf = (r: InterfaceRow): Hl7InterfaceBody => ({
  enabled: r.enabled, host: r.host, port: r.port, receivingApplication: r.receiving_application, receivingFacility: r.receiving_facility,
  sendingFacilityOfOrders: r.sending_facility_of_orders,
});

function viewOf(accountId: number, r: InterfaceRow | undefined): Hl7InterfaceView {
  if (!r) {
    return { accountId, configured: false, enabled: false, host: '', port: null, receivingApplication: '', receivingFacility: '', sendingFacilityOfOrders: null, updatedAt: null };
  }
  return { accountId, configured: true, ...bodyOf(r), updatedAt: toIso(r.updated_at) };
}

async function interfaceRow(ctx: Ctx, accountId: number, transaction?: Transaction, lock = false): Promise<InterfaceRow | undefined> {
  const [row] = await ctx.db.sequelize.query<InterfaceRow>(
    `SELECT ${INTERFACE_COLUMNS} FROM hl7_interfaces WHERE account_id = :accountId${lock ? ' FOR UPDATE' : ''}`,
    { replacements: { accountId }, type: QueryTypes.SELECT, transaction },
  );
  return row;
}

async function assertAccount(ctx: Ctx, accountId: number, transaction?: Transaction): Promise<void> {
  const [account] = await ctx.db.sequelize.query('SELECT id FROM accounts WHERE id = :accountId', { replacements: { accountId }, type: QueryTypes.SELECT, transaction });
  if (!account) throw notFound('Account not found');
}

/** GET /api/admin/accounts/{accountId}/hl7-interface */
export async function getHl7Interface(ctx: Ctx, accountId: number): Promise<Hl7InterfaceView> {
  await assertAccount(ctx, accountId);
  return viewOf(accountId, await interfaceRow(ctx, accountId));
}

/** PUT /api/admin/accounts/{accountId}/hl7-interface: creates or replaces it, audited with the old and new values. */
export async function putHl7Interface(ctx: Ctx, caller: Caller, accountId: number, body: Hl7InterfaceBody): Promise<Hl7InterfaceView> {
  return conflictOnDuplicate(() => ctx.db.sequelize.transaction(async (transaction) => {
    await assertAccount(ctx, accountId, transaction);
    const before = await interfaceRow(ctx, accountId, transaction, true);
    const [after] = await ctx.db.sequelize.query<InterfaceRow>(
      `INSERT INTO hl7_interfaces (account_id, enabled, host, port, receiving_application, receiving_facility, sending_facility_of_orders, updated_by_user_id)
       VALUES (:accountId, :enabled, :host, :port, :receivingApplication, :receivingFacility, :sendingFacilityOfOrders, :userId)
       ON CONFLICT (account_id) DO UPDATE SET enabled = EXCLUDED.enabled, host = EXCLUDED.host, port = EXCLUDED.port,
         receiving_application = EXCLUDED.receiving_application, receiving_facility = EXCLUDED.receiving_facility,
         sending_facility_of_orders = EXCLUDED.sending_facility_of_orders, updated_by_user_id = EXCLUDED.updated_by_user_id, updated_at = now()
       RETURNING ${INTERFACE_COLUMNS}`,
      { replacements: { accountId, ...body, userId: caller.userId }, type: QueryTypes.SELECT, transaction },
    );
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'hl7_interface.updated', entityKind: 'account', entityId: accountId,
      details: { old: before ? bodyOf(before) : null, new: bodyOf(after) },
    }, transaction);
    return viewOf(accountId, after);
  }), {
    hl7_interfaces_orders_facility_key: { field: 'sendingFacilityOfOrders', message: 'Another account already receives orders from this sending facility' },
  });
}

/** The account's interface when it is enabled, else null (its results are then not sent). */
export async function enabledHl7Destination(ctx: Ctx, accountId: number, transaction?: Transaction): Promise<Hl7Destination | null> {
  const row = await interfaceRow(ctx, accountId, transaction);
  return row?.enabled ? { host: row.host, port: row.port, receivingApplication: row.receiving_application, receivingFacility: row.receiving_facility } : null;
}

/** The account's destination whether or not it is enabled (the admin's test message goes to it either way). */
export async function configuredHl7Destination(ctx: Ctx, accountId: number): Promise<Hl7Destination | null> {
  const row = await interfaceRow(ctx, accountId);
  return row ? { host: row.host, port: row.port, receivingApplication: row.receiving_application, receivingFacility: row.receiving_facility } : null;
}
