/**
 * Whose users a caller manages: an internal admin every account's, an account's Super Admin that
 * account's only. Every access command takes a scope and checks each id from the client against it.
 */
import { notFound } from '../errors';

export type AccountScope = { kind: 'account'; accountId: number };
export type AccessScope = { kind: 'all' } | AccountScope;

export const ALL_ACCOUNTS: AccessScope = { kind: 'all' };
export const oneAccount = (accountId: number): AccountScope => ({ kind: 'account', accountId });

/** Refuses an account outside the scope with the same 404 as an account that does not exist. */
export function assertAccountInScope(scope: AccessScope, accountId: number): void {
  if (scope.kind === 'account' && scope.accountId !== accountId) throw notFound('Account not found');
}

/** The account ids a scope may see of a contact's memberships (null: all). */
export const scopedAccountId = (scope: AccessScope): number | null => (scope.kind === 'account' ? scope.accountId : null);
