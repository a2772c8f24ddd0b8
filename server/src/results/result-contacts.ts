/**
 * Whom a patient asks about a result: the laboratory (from configuration) and the clinic that
 * ordered the test, with its ordering physician and how to reach them. The result page and the
 * patient's result email print the same two, from here.
 */
import type { Transaction } from 'sequelize';
import type { ResultContacts } from '@platform/domain';
import type { Db } from '@platform/db';
import type { LabIdentity } from '../config';

type SampleRow = InstanceType<Db['models']['Sample']>;

/** The lab's and the ordering clinic's contact for a sample's result (no clinic for an order without an account). */
export async function resultContactsOf(
  db: Db,
  lab: LabIdentity,
  sample: Pick<SampleRow, 'orderId'>,
  transaction?: Transaction,
): Promise<ResultContacts> {
  const order = await db.models.Order.findByPk(sample.orderId, {
    attributes: ['id', 'accountId', 'physicianId'],
    include: [
      { association: 'account', attributes: ['name'] },
      { association: 'physician', attributes: ['firstName', 'lastName'], include: [{ association: 'contact', attributes: ['phone', 'email'] }] },
    ],
    transaction,
  });
  const physician = order?.physician ?? null;
  return {
    lab: { name: lab.name, phone: lab.phone, email: lab.email },
    clinic: order?.account
      ? {
        name: order.account.name,
        physician: physician ? `${physician.firstName} ${physician.lastName}` : null,
        phone: physician?.contact?.phone?.trim() || null,
        email: physician?.contact?.email ?? null,
      }
      : null,
  };
}
