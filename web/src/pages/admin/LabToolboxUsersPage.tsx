import { useState } from 'react';
import { Badge, Button, Fieldset, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ADMIN_TOASTS, formatDate, formatDateTime, fullName, listName, PERSON_NAME_MAX_LENGTH, type LabUserRow } from '@platform/domain';
import { createLabUser, deactivateLabUser, useLabUsers, useRefreshAdmin } from '../../api/admin';
import { FormError } from '../../components/FormError';
import { useCommand, useFormSubmit } from '../../forms/use-form-submit';
import { useFocusBack } from '../../shell/focus-back';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';
import { AdminPageFrame } from './AdminPageFrame';
import { ConfirmDialog } from './ConfirmDialog';
import { onCommandError } from './errors';
import { commandError } from '../../forms/server-errors';
import { QueryState, queryFlags } from './QueryState';
import { RecordTable } from '../../components/RecordTable';

/** /admin/provider/lab-toolbox: the lab staff who use the Lab Toolbox; add one (emailed a set-password link) or deactivate one. */
export function LabToolboxUsersPage() {
  return (
    <AdminPageFrame title="Lab toolbox users" subtitle="The lab staff who sign in to the Lab Toolbox. A deactivated user can no longer sign in; what they did stays on record.">
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
  // Dismissing the refusal takes its close button away: back to what sent the form (Add user).
  const focusBack = useFocusBack();
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
      <form onSubmit={(e) => { focusBack.remember(); sending.onSubmit(e); }} noValidate>
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
            <FormError title={ADMIN_TOASTS.labUserFailed} error={sending.lastError} message={sending.lastError === undefined ? undefined : commandError(sending.lastError)} onClose={focusBack.after(sending.reset)} />
            <Group justify="flex-end">
              <Button type="submit" loading={sending.submitting}>
                Add user
              </Button>
            </Group>
          </Stack>
        </Fieldset>
      </form>
    </Paper>
  );
}

function LabUserList() {
  const users = useLabUsers();
  const refresh = useRefreshAdmin();
  const [deactivating, setDeactivating] = useState<LabUserRow | null>(null);
  // Closing the dialog takes the focus with it: back to the row's Deactivate button, or (the user
  // deactivated, the button gone) the page's heading.
  const focusBack = useFocusBack();
  const closeDialog = focusBack.after(() => setDeactivating(null));
  const command = useCommand('admin:lab-user-delete', (user: LabUserRow) => deactivateLabUser(user.id));
  const rows = users.data ?? [];

  const confirm = async () => {
    if (!deactivating) return;
    try {
      const user = await command.trigger(deactivating);
      // The row stays, shown inactive, before the list is read again.
      void users.mutate((list) => list?.map((u) => (u.id === user.id ? user : u)), { revalidate: false });
      showSuccessToast(`${fullName(user)} was deactivated`);
      closeDialog();
      void refresh();
    } catch (error) {
      onCommandError(error);
    }
  };

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
                {u.isActive && (
                  <Button size="xs" variant="outline" color={AA_COLORS.red} onClick={(e) => { focusBack.remember(e.currentTarget); command.reset(); setDeactivating(u); }} aria-label={`Deactivate ${fullName(u)}`}>
                    Deactivate
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
      </QueryState>
      {deactivating && (
        <ConfirmDialog
          title={`Deactivate ${fullName(deactivating)}?`}
          confirmLabel="Deactivate"
          onConfirm={() => void confirm()}
          onClose={closeDialog}
          busy={command.isMutating}
          error={command.error === undefined ? undefined : commandError(command.error)}
          errorTitle="The user was not deactivated"
        >
          <Text>
            {deactivating.email} will no longer be able to sign in to the Lab Toolbox, and any session they have ends now. The results they entered or approved stay on record.
          </Text>
        </ConfirmDialog>
      )}
    </Stack>
  );
}
