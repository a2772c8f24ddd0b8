/** How a provider user's access and sign-in read on the users pages. */
import type { AccessStatus, ContactRow } from '@platform/domain';
import { AA_COLORS } from '../../status-colors';

export const ACCESS_COLORS: Record<AccessStatus, string> = { Pending: AA_COLORS.blue, Approved: AA_COLORS.green, Denied: AA_COLORS.red };

/** Whether a contact can sign in: no sign-in yet (not approved), or their user active or not. */
export function signInState(c: Pick<ContactRow, 'userId' | 'userActive'>): { label: string; color: string } {
  if (c.userId === null) return { label: 'No sign-in', color: AA_COLORS.gray };
  return c.userActive ? { label: 'Active', color: AA_COLORS.green } : { label: 'Inactive', color: AA_COLORS.orange };
}
