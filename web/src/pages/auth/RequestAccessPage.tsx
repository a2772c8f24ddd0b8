import { useState } from 'react';
import type { ReactNode } from 'react';
import { Anchor, Button, Center, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router-dom';
import { ACCOUNT_NAME_MAX_LENGTH, REASON_MAX_LENGTH } from '@platform/domain';
import { requestAccess } from '../../api/auth';
import { FormError } from '../../components/FormError';
import { Notice } from '../../components/Notice';
import { ProviderPersonFields } from '../../components/ProviderPersonFields';
import { EMPTY_PROVIDER_PERSON, providerPersonBody, providerPersonRules, type ProviderPersonValues } from '../../forms/provider-person';
import { useFormSubmit } from '../../forms/use-form-submit';
import { signInPath, SIGN_IN_PORTAL_INFO } from '../../portals';
import { BrandMark } from '../../components/BrandMark';

interface RequestAccessValues extends ProviderPersonValues {
  accountName: string;
  note: string;
}

/**
 * /provider/request-access: a physician or clinic staff member without an account asks for one.
 * The lab's admins approve (a set-password email follows) or deny. The answer is one sentence,
 * the same whether or not the email is already known, shown in place of the form.
 * Its own chunk, with its own (wider) card: the sign-in page only links here, and carries none of it.
 */
export function RequestAccessPage() {
  const info = SIGN_IN_PORTAL_INFO.provider;
  const [answer, setAnswer] = useState<string | null>(null);
  const form = useForm<RequestAccessValues>({
    initialValues: { ...EMPTY_PROVIDER_PERSON, accountName: '', note: '' },
    validate: {
      ...providerPersonRules,
      accountName: (value) => (value.trim() ? null : 'Enter the name of your practice or clinic'),
    },
  });
  const sending = useFormSubmit(
    form,
    (values) => requestAccess({ ...providerPersonBody(values), accountName: values.accountName.trim(), note: values.note.trim() || null }),
    {
      onSuccess: (result) => {
        setAnswer(result?.message ?? 'Thank you. We have received your request and will email you.');
        window.scrollTo({ top: 0 });
      },
    },
  );

  return (
    <RequestCard
      portalTitle={info.title}
      intro={answer ? undefined : 'For physicians and clinic staff who order tests. Tell us who you are and where you work: the lab reviews each request and answers by email.'}
    >
      {answer ? (
        <Stack gap="md">
          <Notice color="green" title="Request sent">
            {answer}
          </Notice>
          <Anchor component={Link} to={signInPath('provider')} fz="sm">
            Back to sign-in
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={sending.onSubmit} noValidate aria-label="Request access">
          <Stack gap="md">
            <ProviderPersonFields form={form} />
            <TextInput
              label="Practice name"
              description="The practice, clinic or hospital you order tests for"
              autoComplete="organization"
              maxLength={ACCOUNT_NAME_MAX_LENGTH}
              withAsterisk
              key={form.key('accountName')}
              {...form.getInputProps('accountName')}
            />
            <Textarea
              label="Note"
              description="Anything that helps us place you (optional)"
              autosize
              minRows={2}
              maxRows={6}
              maxLength={REASON_MAX_LENGTH}
              key={form.key('note')}
              {...form.getInputProps('note')}
            />
            <FormError title="Your request was not sent" error={sending.error} />
            <Group justify="space-between" align="center" mt={4}>
              <Anchor component={Link} to={signInPath('provider')} fz="sm">
                Back to sign-in
              </Anchor>
              <Button type="submit" loading={sending.submitting}>
                Send request
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </RequestCard>
  );
}

/** The sign-in pages' card (AuthCard), wider for this longer form. */
function RequestCard({ portalTitle, intro, children }: { portalTitle: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <Center mih={{ base: 'auto', xs: '80vh' }} py={{ base: 'md', xs: 'xl' }}>
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 36 }} w="100%" maw={640}>
        <Stack gap="lg">
          <Stack gap={6}>
            <BrandMark size={36} />
            <Text fz="sm" fw={600} c="clinical.7" tt="uppercase" lts={0.6} mt="xs">
              {portalTitle}
            </Text>
            <Title order={1} fz={26}>
              Request access
            </Title>
            {intro && (
              <Text c="dimmed" fz="sm">
                {intro}
              </Text>
            )}
          </Stack>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
