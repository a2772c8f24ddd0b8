/**
 * A research project's own fields, as the admin creates or edits them: name, protocol and consent
 * document (a path of the SPA's documents or a URL), the accounts taking part and the tests it orders.
 * The form holds ResearchProjectBody plus the chosen accounts' names.
 */
import { Checkbox, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { RESEARCH_PROJECT_NAME_MAX_LENGTH, RESEARCH_PROJECT_TESTS, type ResearchProjectBody, type TestName } from '@platform/domain';
import { nestedFieldOf } from '../../forms/server-errors';
import { useFormSubmit } from '../../forms/use-form-submit';
import { AccountMultiSelect, type AccountOption } from './AccountSelect';
import { FormFooter } from './FormFooter';

export interface ProjectFieldValues {
  name: string;
  protocol: string;
  consentDocument: string;
  accounts: AccountOption[];
  tests: TestName[];
}

export const EMPTY_PROJECT: ProjectFieldValues = { name: '', protocol: '', consentDocument: '', accounts: [], tests: [] };

const bodyOf = (v: ProjectFieldValues): ResearchProjectBody => ({
  name: v.name.trim(), protocol: v.protocol.trim() || null, consentDocument: v.consentDocument.trim() || null, accountIds: v.accounts.map((a) => a.id), tests: v.tests,
});

export function ResearchProjectFields<R>({ initial, submitLabel, errorTitle, disabled, onSubmit, onSaved }: {
  initial: ProjectFieldValues;
  submitLabel: string;
  errorTitle: string;
  disabled?: boolean;
  onSubmit: (body: ResearchProjectBody) => Promise<R>;
  onSaved: (result: R) => void;
}) {
  const form = useForm<ProjectFieldValues>({
    initialValues: initial,
    validate: {
      name: (v) => (v.trim() ? null : 'Enter the project name'),
      accounts: (v) => (v.length ? null : 'Choose at least one account taking part'),
      tests: (v) => (v.length ? null : 'Choose at least one test the project orders'),
    },
  });
  const sending = useFormSubmit(form, (v) => onSubmit(bodyOf(v)), {
    fieldOf: nestedFieldOf(() => form.getValues(), { accountIds: 'accounts' }),
    onSuccess: (result) => onSaved(result),
  });
  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label={submitLabel}>
      <Stack gap="sm">
        <TextInput label="Project name" withAsterisk maxLength={RESEARCH_PROJECT_NAME_MAX_LENGTH} disabled={disabled} {...form.getInputProps('name')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label="Protocol" description="A path of the site's documents or a URL" disabled={disabled} {...form.getInputProps('protocol')} />
          <TextInput label="Consent document" description="A path of the site's documents or a URL" disabled={disabled} {...form.getInputProps('consentDocument')} />
        </SimpleGrid>
        <div>
          <AccountMultiSelect
            label="Accounts taking part"
            description="Their providers order for the project and fill its study responses"
            value={form.getValues().accounts}
            onChange={(accounts) => form.setFieldValue('accounts', accounts)}
          />
          {form.errors.accounts && <Group c="red.9" fz="sm" mt={4} role="alert">{form.errors.accounts}</Group>}
        </div>
        <Checkbox.Group label="Tests the project orders" withAsterisk {...form.getInputProps('tests')}>
          <Group gap="md" mt={6}>
            {RESEARCH_PROJECT_TESTS.map((t) => <Checkbox key={t} value={t} label={t} disabled={disabled} />)}
          </Group>
        </Checkbox.Group>
        {!disabled && <FormFooter sending={sending} errorTitle={errorTitle} submitLabel={submitLabel} />}
      </Stack>
    </form>
  );
}
