import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ACCOUNT_ROLES, AccountRole, ProviderTitle, type AccountRole as AccountRoleT } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { createAccountUser, type AccountUserInvited } from '../../api/account-users';
import { FormError } from '../../components/FormError';
import { ProviderPersonFields } from '../../components/ProviderPersonFields';
import { EMPTY_PROVIDER_PERSON, providerPersonBody, providerPersonRules, type ProviderPersonValues } from '../../forms/provider-person';
import { useFormSubmit } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';

interface NewUserValues extends ProviderPersonValues {
  role: string | null;
}

/** Where the server's field paths land: the person's fields, and accounts[0].role on the role. */
function newUserFieldOf(field: string): keyof NewUserValues | undefined {
  const head = field.split('.')[0];
  if (head === 'accounts') return 'role';
  return ['firstName', 'lastName', 'email', 'phone', 'title', 'specialty', 'npi', 'role'].includes(head) ? (head as keyof NewUserValues) : undefined;
}

/** A refusal the form explains (a field, a duplicate email, not allowed): the others open the error modal. */
const isFormsToShow = (error: unknown) => error instanceof ApiError && [400, 403, 404, 409].includes(error.status);

/**
 * A super admin adds a user to their account: who they are and their role here. The API emails
 * them an invitation; they join when they accept it.
 */
export function NewAccountUserForm({ accountId, accountName, onCreated, onCancel }: {
  accountId: number;
  accountName: string;
  onCreated: (invited: AccountUserInvited) => void;
  onCancel: () => void;
}) {
  const form = useForm<NewUserValues>({
    initialValues: { ...EMPTY_PROVIDER_PERSON, role: null },
    validate: { ...providerPersonRules, role: (value) => (value ? null : 'Choose their role in this account') },
    onValuesChange: (values, previous) => {
      // A physician most often orders as a physician: suggest it (once, while no role is chosen).
      if (values.title !== previous.title && values.title === ProviderTitle.Physician && !values.role) form.setFieldValue('role', AccountRole.Physician);
    },
  });
  const sending = useFormSubmit(
    form,
    (values) => createAccountUser(accountId, { ...providerPersonBody(values), role: values.role as AccountRoleT }),
    {
      fieldOf: newUserFieldOf,
      onSuccess: (invited) => onCreated(invited),
      onError: (error) => {
        if (!isFormsToShow(error)) reportError(error, 'Failed to add user');
      },
    },
  );

  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label="Add a user">
      <Stack gap="md">
        <Text fz="sm" c="dimmed">
          They get an email inviting them to {accountName}. They join when they accept it (choosing a password if they are new to the platform).
        </Text>
        <ProviderPersonFields form={form} />
        <Select
          label="Role in this account"
          placeholder="Choose"
          data={ACCOUNT_ROLES}
          withAsterisk
          allowDeselect={false}
          description="Physicians order for themselves; support staff order for the physicians they are linked to; super admins manage the account's users."
          key={form.key('role')}
          {...form.getInputProps('role')}
        />
 <FormError title="The invitation was not sent" error={isFormsToShow(sending.error) ? sending.error : undefined} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={sending.submitting}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
