import { useState } from 'react';
import { Badge, Button, Fieldset, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ADMIN_TOASTS, fullName, listName, PERSON_NAME_MAX_LENGTH, type LabUserRow } from '@platform/domain';
import { createLabUser, deactivateLabUser, reactivateLabUser, useLabUsers, useRefreshAdmin } from '../../api/admin';
import { useCommand, useFormSubmit } from '../../forms/use-form-submit';
import { useFocusBack } from '../../shell/focus-back';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';
import { AdminPageFrame } from './AdminPageFrame';
import { ResetTwoFactorButton } from '../../components/two-factor/ResetTwoFactorButton';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { onCommandError } from './errors';
import { FormFooter } from './FormFooter';
import { commandError } from '../../forms/server-errors';
import { QueryState, queryFlags } from './QueryState';
import { RecordTable } from '../../components/RecordTable';
import { formatDate, formatDateTime } from '../../format';

/** /admin/provider/lab-toolbox: the lab staff who use the Lab Toolbox; add one (emailed a set-password link), deactivate one or reactivate one. */
export function LabToolboxUsersPage() {
  return (
    <AdminPageFrame title="Lab toolbox users" subtitle="The lab staff who sign in to the Lab Toolbox. A deactivated user can no longer sign in until reactivated; what they did stays on record.">
      <NewLabUser />
      <LabUserList />
    </AdminPageFrame>
  );
}

interface LabUserValues {
  firstName: string;
  lastName: string;
  email: string;
}
const EMPTY: LabUserValues = { firstName: '', lastName: '', email: '' };

function NewLabUser() {
  const refresh = useRefreshAdmin();
  const form = useForm<LabUserValues>({
    initialValues: EMPTY,
    validate: {
      firstName: (v) => (v.trim() ? null : 'Enter the first name'),
      lastName: (v) => (v.trim() ? null : 'Enter the last name'),
      email: (v) => (!v.trim() ? 'Enter the email address' : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? null : 'Enter a valid email address'),
    },
  });
  const sending = useFormSubmit(form, (v) => createLabUser({ firstName: v.firstName.trim(), lastName: v.lastName.trim(), email: v.email.trim() }), {
    onSuccess: (answer) => {
      // SPEC §8: lab toolbox user creation shows the server's message.
      showSuccessToast(answer.message);
      form.setValues(EMPTY);
      form.resetDirty(EMPTY);
      void refresh();
    },
    onError: onCommandError,
  });
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="new-lab-user">
      <form onSubmit={sending.onSubmit} noValidate>
        <Fieldset variant="unstyled" disabled={sending.submitting}>
          <Stack gap="md">
            <Title order={2} fz="lg" id="new-lab-user">
              Add a lab toolbox user
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput label="First name" required maxLength={PERSON_NAME_MAX_LENGTH} autoComplete="off" {...form.getInputProps('firstName')} />
              <TextInput label="Last name" required maxLength={PERSON_NAME_MAX_LENGTH} autoComplete="off" {...form.getInputProps('lastName')} />
              <TextInput label="Email" type="email" required autoComplete="off" {...form.getInputProps('email')} />
            </SimpleGrid>
            {/* SPEC §8: 'Adding lab toolbox user failed', with the server's reason. */}
            <FormFooter sending={sending} errorTitle={ADMIN_TOASTS.labUserFailed} submitLabel="Add user" error={sending.lastError} />
          </Stack>
        </Fieldset>
      </form>
    </Paper>
  );
}

/** A change of a user's sign-in that asks first: what it is called, what it says, how it ends. */
const STATUS_CHANGES = {
  deactivate: {
    label: 'Deactivate',
    run: deactivateLabUser,
    done: (name: string) => `${name} was deactivated`,
    failed: 'The user was not deactivated',
    danger: true,
    explain: (u: LabUserRow) =>
      `${u.email} will no longer be able to sign in to the Lab Toolbox, and any session they have ends now. The results they entered or approved stay on record.`,
  },
  reactivate: {
    label: 'Reactivate',
    run: reactivateLabUser,
    done: (name: string) => `${name} was reactivated`,
    failed: 'The user was not reactivated',
    danger: false,
    explain: (u: LabUserRow) =>
      `${u.email} will be able to sign in to the Lab Toolbox again with their password (or choose a new one with "Forgot password").`,
  },
} as const;
type StatusChange = keyof typeof STATUS_CHANGES;

function LabUserList() {
  const users = useLabUsers();
  const refresh = useRefreshAdmin();
  const [confirming, setConfirming] = useState<{ user: LabUserRow; change: StatusChange } | null>(null);
  // Closing the dialog takes the focus with it: back to the row's button, or (the status changed,
  // that button gone) the page's heading.
  const focusBack = useFocusBack();
  const closeDialog = focusBack.after(() => setConfirming(null));
  const command = useCommand('admin:lab-user-status', ({ user, change }: { user: LabUserRow; change: StatusChange }) => STATUS_CHANGES[change].run(user.id));
  const rows = users.data ?? [];
  const ask = (user: LabUserRow, change: StatusChange, button: HTMLElement) => {
    focusBack.remember(button);
    command.reset();
    setConfirming({ user, change });
  };

  const confirm = async () => {
    if (!confirming) return;
    try {
      const user = await command.trigger(confirming);
      // The row stays, shown with its new status, before the list is read again.
      void users.mutate((list) => list?.map((u) => (u.id === user.id ? user : u)), { revalidate: false });
      showSuccessToast(STATUS_CHANGES[confirming.change].done(fullName(user)));
      closeDialog();
      void refresh();
    } catch (error) {
      onCommandError(error);
    }
  };

  const change = confirming && STATUS_CHANGES[confirming.change];
  return (
    <Stack gap="sm" component="section" aria-labelledby="lab-users-title">
      <Title order={2} fz="lg" id="lab-users-title">
        Users
      </Title>
      <QueryState what="lab toolbox users" {...queryFlags(users, (d) => d.length === 0)} emptyText="No lab toolbox users yet." onRetry={() => void users.mutate()}>
        <RecordTable minWidth={720} label="Lab toolbox users" columns={['Name', 'Email', 'Status', 'Last sign-in', 'Added']} withActions>
          {rows.map((u) => (
            <Table.Tr key={u.id} data-active={u.isActive}>
              <Table.Td>{listName(u)}</Table.Td>
              <Table.Td>{u.email}</Table.Td>
              <Table.Td>
                <Badge color={u.isActive ? AA_COLORS.green : AA_COLORS.gray}>{u.isActive ? 'Active' : 'Inactive'}</Badge>
              </Table.Td>
              <Table.Td>{u.lastLoginAt ? formatDateTime(u.lastLoginAt) : 'Never'}</Table.Td>
              <Table.Td>{formatDate(u.createdAt)}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {u.isActive ? (
                    <Button size="xs" variant="outline" color={AA_COLORS.red} onClick={(e) => ask(u, 'deactivate', e.currentTarget)} aria-label={`Deactivate ${fullName(u)}`}>
                      Deactivate
                    </Button>
                  ) : (
                    <Button size="xs" variant="outline" color={AA_COLORS.green} onClick={(e) => ask(u, 'reactivate', e.currentTarget)} aria-label={`Reactivate ${fullName(u)}`}>
                      Reactivate
                    </Button>
                  )}
                  {u.isActive && <ResetTwoFactorButton size="xs" userId={u.id} name={fullName(u)} />}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
      </QueryState>
      {confirming && change && (
        <ConfirmDialog
          title={`${change.label} ${fullName(confirming.user)}?`}
          confirmLabel={change.label}
          danger={change.danger}
          onConfirm={() => void confirm()}
          onClose={closeDialog}
          busy={command.isMutating}
          error={command.error === undefined ? undefined : commandError(command.error)}
          errorTitle={change.failed}
        >
          <Text>{change.explain(confirming.user)}</Text>
        </ConfirmDialog>
      )}
    </Stack>
  );
}
