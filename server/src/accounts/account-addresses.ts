/**
 * An account's addresses: where the lab sends its kits and parcels (shipping) and where its
 * invoices go (billing); each kind at most once per account, either may be missing on an older
 * account. Shipping (kits, labels) reads the shipping address from here.
 */
import type { Transaction } from 'sequelize';
import type { AccountAddress, Db } from '@platform/db';
import { AccountAddressKind, type AccountAddressKind as Kind, type PostalAddress } from '@platform/domain';

/** The stored row as the domain's address. */
export function postalAddressOf(row: Pick<AccountAddress, 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'postalCode' | 'country'>): PostalAddress {
  return {
    addressLine1: row.addressLine1, addressLine2: row.addressLine2 ?? null, city: row.city, state: row.state ?? null,
    postalCode: row.postalCode, country: row.country,
  };
}

/** One address of an account, or null when the account has none of that kind. */
export async function accountAddress(db: Db, accountId: number, kind: Kind, transaction?: Transaction): Promise<PostalAddress | null> {
  const row = await db.models.AccountAddress.findOne({ where: { accountId, kind }, transaction });
  return row ? postalAddressOf(row) : null;
}

/** Where the lab ships to an account (kits, parcels), or null when the account has no shipping address yet. */
export function accountShippingAddress(db: Db, accountId: number, transaction?: Transaction): Promise<PostalAddress | null> {
  return accountAddress(db, accountId, AccountAddressKind.Shipping, transaction);
}

/** Sets (or, with null, removes) one address of an account, inside the caller's transaction. */
export async function saveAccountAddress(db: Db, transaction: Transaction, accountId: number, kind: Kind, address: PostalAddress | null): Promise<void> {
  const { AccountAddress: Address } = db.models;
  if (!address) {
    await Address.destroy({ where: { accountId, kind }, transaction });
    return;
  }
  const existing = await Address.findOne({ where: { accountId, kind }, transaction, lock: transaction.LOCK.UPDATE });
  if (existing) await existing.update(address, { transaction });
  else await Address.create({ accountId, kind, ...address }, { transaction });
}
