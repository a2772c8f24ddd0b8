import { describe, expect, it } from 'vitest';
import { AccountRole, UserKind } from '@platform/domain';
import type { StoredSessionUser } from '../session/stored-user-shape';
import { navigationFor } from './navigation';

const provider = (role: AccountRole | null): StoredSessionUser => ({
  portal: 'provider', userId: 7, kind: UserKind.Provider, email: 'x@demo.test', firstName: 'X', lastName: 'Y',
  currentAccountId: 1, currentAccountName: 'Riverside Oncology', currentAccountRole: role,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
});
const labels = (role: AccountRole | null) => navigationFor('provider', provider(role)).map((l) => l.label);

describe('the clinic sidebar', () => {
  it("offers the account's users to its super admins only", () => {
    expect(navigationFor('provider', provider(AccountRole.SuperAdmin)).find((l) => l.label === 'Users')?.to).toBe('/provider-clinic/1/users');
    expect(labels(AccountRole.Physician)).not.toContain('Users');
    expect(labels(AccountRole.SupportStaff)).not.toContain('Users');
    // A user stored before roles were kept: no entry until /auth/me brings the role.
    expect(labels(null)).not.toContain('Users');
  });
});

describe('the sidebar signed out', () => {
  it('leads back to the portal\'s sign-in (the set-password and reset pages are never an empty bar)', () => {
    expect(navigationFor('provider', null).map((l) => [l.label, l.to])).toEqual([['Sign in', '/provider/login']]);
    expect(navigationFor('lab', null).map((l) => [l.label, l.to])).toEqual([['Sign in', '/lab_toolbox/login']]);
    // Signed in to another portal: this portal's sign-in still.
    expect(navigationFor('lab', provider(AccountRole.Physician)).map((l) => l.label)).toEqual(['Sign in']);
    expect(navigationFor(null, null)).toEqual([]);
  });
});
