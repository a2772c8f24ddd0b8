/**
 * Where a clinic's questions about a test go (SPEC §9 support mailboxes): the account's mailbox for
 * the test's line when the admin set one, else the lab's own address (LAB_EMAIL). The emails about
 * a test name it and reply to it.
 */
import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { testLineOf } from '@platform/domain';
import type { LabIdentity } from '../config';

export async function supportMailboxFor(db: Db, lab: Pick<LabIdentity, 'email'>, accountId: number | null, testName: string, transaction?: Transaction): Promise<string> {
  const line = testLineOf(testName);
  if (!line || accountId === null) return lab.email;
  const row = await db.models.AccountSupportMailbox.findOne({ where: { accountId, testLine: line }, attributes: ['email'], transaction });
  return row?.email ?? lab.email;
}
