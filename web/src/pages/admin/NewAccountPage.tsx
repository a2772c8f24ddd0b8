import { useState } from 'react';
import { Anchor, Fieldset, Paper, Stack } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useForm } from '@mantine/form';
import { ADMIN_TOASTS, type AdminAccountRow } from '@platform/domain';
import { createAccount, useRefreshAdmin } from '../../api/admin';
import { Notice } from '../../components/Notice';
import { nestedFieldOf } from '../../forms/server-errors';
import { useFormSubmit } from '../../forms/use-form-submit';
import { showSuccessToast } from '../../shell/success-toast';
import { ACCOUNT_FORM_MODE, AccountFormFields, accountBodyOf, accountFormValidation, emptyAccountForm, type AccountFormValues } from './AccountFormFields';
import { AdminPageFrame } from './AdminPageFrame';
import { ADMIN_PATHS } from './paths';
import { onCommandError } from './errors';
import { FormFooter } from './FormFooter';

/** /admin/provider/account/new: a clinic or research account, its portal access, addresses, departments and ordering physicians. */
export function NewAccountPage() {
  const [created, setCreated] = useState<AdminAccountRow | null>(null);
  const refresh = useRefreshAdmin();
  const form = useForm<AccountFormValues>({ mode: ACCOUNT_FORM_MODE, initialValues: emptyAccountForm(), validate: accountFormValidation });

  const sending = useFormSubmit(
    form,
    (v) => {
      const body = accountBodyOf(v);
      // A new account's physicians are all new: no ids.
      return createAccount({ ...body, physicians: body.physicians.map(({ id: _id, ...p }) => p) });
    },
    {
      fieldOf: nestedFieldOf(() => form.getValues()),
      onSuccess: (account) => {
        showSuccessToast(ADMIN_TOASTS.accountCreated);
        setCreated(account);
        form.setValues(emptyAccountForm());
        form.resetDirty(emptyAccountForm());
        void refresh();
      },
      onError: onCommandError,
    },
  );

  return (
    <AdminPageFrame title="New account" subtitle="A clinic or research account, its portal access, addresses, departments and ordering physicians." maxWidth={960}>
      {/* The toast said it was created; this says what comes next (not the same news twice). */}
      {created && (
        <Notice color="blue" title="Next: its providers" onClose={sending.returnFocusAfter(() => setCreated(null))}>
          {created.name} ({created.type}) has no users yet.{' '}
          <Anchor component={Link} to={ADMIN_PATHS.register}>Register a provider</Anchor> to give its physicians and staff access.
        </Notice>
      )}
      <Paper withBorder p="lg">
        <form onSubmit={sending.onSubmit} noValidate aria-label="New account">
          <Fieldset variant="unstyled" disabled={sending.submitting}>
            <Stack gap="lg">
              <AccountFormFields form={form} />
              <FormFooter sending={sending} errorTitle="The account was not created" submitLabel="Create account" />
            </Stack>
          </Fieldset>
        </form>
      </Paper>
    </AdminPageFrame>
  );
}
