import { Stack } from '@mantine/core';
import { useMe } from '../../api/auth';
import { ClipboardIcon, DocumentIcon, FlaskIcon, HomeIcon, KeyIcon, StethoscopeIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { ToolList, type ToolEntry } from '../../components/ToolList';
import { useStoredUser } from '../../session/stored-user';

/** The administration areas; each is linked here when its page is built. */
export const ADMIN_AREAS: readonly ToolEntry[] = [
  { title: 'Provider approvals', description: 'Approve or deny access requests from providers who signed up.', icon: StethoscopeIcon },
  { title: 'Register a provider', description: 'Add a physician or staff member on their behalf.', icon: ClipboardIcon },
  { title: 'New account', description: 'Create a clinic or research account and set its portal access.', icon: HomeIcon },
  { title: 'Users and access', description: 'Add or remove account access, super admins, activate or deactivate users.', icon: KeyIcon },
  { title: 'Emails', description: 'Send sign-up reminders and feedback requests; read what was sent.', icon: DocumentIcon },
  { title: 'Lab toolbox users', description: 'Add and remove the lab staff who use the Lab Toolbox.', icon: FlaskIcon },
  { title: 'Insurance plans', description: 'The plans patients can choose when they order.', icon: DocumentIcon },
  { title: 'Financial aid', description: 'Patients approved for the financial assistance program.', icon: ClipboardIcon },
];

/** /admin: the administration home after sign-in. */
export function AdminHomePage() {
  const { data: me } = useMe();
  const stored = useStoredUser();
  const firstName = me?.user.firstName ?? stored?.firstName ?? '';
  return (
    <Stack gap="lg" maw={1100}>
      <PageHeader title={firstName ? `Welcome, ${firstName}` : 'Welcome'} subtitle="Administration" />
      <ToolList tools={ADMIN_AREAS} label="Administration areas" />
    </Stack>
  );
}
