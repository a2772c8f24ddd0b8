import { Anchor, Fieldset, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useParams } from 'react-router-dom';
import { ADMIN_TOASTS, EMAIL_MAX_LENGTH, formatCount, TEST_LINES, type AdminAccountDetail, type TestLine } from '@platform/domain';
import { updateAccount, useAdminAccount, useRefreshAdmin } from '../../api/admin';
import { nestedFieldOf } from '../../forms/server-errors';
import { useFormSubmit } from '../../forms/use-form-submit';
import { showSuccessToast } from '../../shell/success-toast';
import { ACCOUNT_FORM_MODE, AccountFormFields, accountBodyOf, accountFormOf, accountFormValidation, type AccountFormValues } from './AccountFormFields';
import { AdminPageFrame } from './AdminPageFrame';
import { ADMIN_PATHS } from './paths';
import { onCommandError } from './errors';
import { FormFooter } from './FormFooter';
import { QueryState, queryFlags } from './QueryState';

type Values = AccountFormValues & { supportMailboxes: Record<TestLine, string> };

const formOf = (d: AdminAccountDetail): Values => ({
  ...accountFormOf(d),
  supportMailboxes: Object.fromEntries(TEST_LINES.map((line) => [line, d.supportMailboxes.find((m) => m.testLine === line)?.email ?? ''])) as Record<TestLine, string>,
});

/** /admin/provider/accounts/{accountId}: everything about an account the admin edits, saved at once (audited with old and new values). */
export function AccountPage() {
  const accountId = Number(useParams().accountId) || null;
  const account = useAdminAccount(accountId);
  return (
    <AdminPageFrame
      title={account.data?.name ?? 'Account'}
      subtitle={account.data ? `${account.data.type} · ${formatCount(account.data.userCount)} users · ${formatCount(account.data.sampleCount)} samples` : 'An account'}
      actions={<Anchor component={Link} to={ADMIN_PATHS.accounts}>All accounts</Anchor>}
      maxWidth={960}
    >
      <QueryState what="account" {...queryFlags(account, () => false)} emptyText="" onRetry={() => void account.mutate()}>
        {/* A new form for each stored version: after a save, the page shows what the server kept. */}
        {account.data && <AccountForm key={account.data.updatedAt} account={account.data} />}
      </QueryState>
    </AdminPageFrame>
  );
}

function AccountForm({ account }: { account: AdminAccountDetail }) {
  const refresh = useRefreshAdmin();
  const form = useForm<Values>({ mode: ACCOUNT_FORM_MODE, initialValues: formOf(account), validate: accountFormValidation });
  const locked = new Set(account.physicians.filter((p) => p.hasOrders).map((p) => p.id));
  const sending = useFormSubmit(
    form,
    (v) => updateAccount(account.id, {
      ...accountBodyOf(v),
      supportMailboxes: TEST_LINES.filter((line) => v.supportMailboxes[line].trim()).map((line) => ({ testLine: line, email: v.supportMailboxes[line].trim() })),
    }),
    {
      fieldOf: nestedFieldOf(() => form.getValues()),
      onSuccess: () => {
        showSuccessToast(ADMIN_TOASTS.accountUpdated);
        void refresh();
      },
      onError: onCommandError,
    },
  );
  return (
    <Paper withBorder p="lg">
      <form onSubmit={sending.onSubmit} noValidate aria-label="Account">
        <Fieldset variant="unstyled" disabled={sending.submitting}>
          <Stack gap="lg">
            <AccountFormFields form={form} lockedPhysicianIds={locked} />
            <Fieldset legend="Support mailboxes">
              <Stack gap="sm">
                <Text c="dimmed" fz="sm">
                  Where this clinic&apos;s questions about each test line go; the emails about a test of that line name it. Blank: the lab&apos;s own address.
                </Text>
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  {TEST_LINES.map((line) => (
                    <TextInput label={`${line} support mailbox`} type="email" maxLength={EMAIL_MAX_LENGTH} autoComplete="off" key={form.key(`supportMailboxes.${line}`)} {...form.getInputProps(`supportMailboxes.${line}`)} />
                  ))}
                </SimpleGrid>
                {form.errors.supportMailboxes && <Text c="red.9" fz="sm" role="alert">{form.errors.supportMailboxes}</Text>}
              </Stack>
            </Fieldset>
            <FormFooter sending={sending} errorTitle="The account was not saved" submitLabel="Save account" />
          </Stack>
        </Fieldset>
      </form>
    </Paper>
  );
}
