import { useState } from 'react';
import { Card, Stack, Switch, Text, Title } from '@mantine/core';
import { setTwoFactorRequirement, useTwoFactorRequirement } from '../../api/two-factor';
import { FormError } from '../../components/FormError';

/** The account's Super Admin: "Require two-factor sign-in" for everyone in the account (they enrol at their next sign-in). */
export function TwoFactorRequirementCard({ accountId }: { accountId: number }) {
  const { data, mutate } = useTwoFactorRequirement(accountId);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const change = async (required: boolean) => {
    setBusy(true);
    setProblem(null);
    try {
      const answer = await setTwoFactorRequirement(accountId, required);
      await mutate(answer, { revalidate: false });
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="two-factor-requirement-title">
      <Stack gap="xs">
        <Title order={3} fz="md" id="two-factor-requirement-title">
          Sign-in security
        </Title>
        <FormError title="Not changed" error={problem} />
        <Switch
          label="Require two-factor sign-in"
          description="Everyone in this account signs in with a code from an authenticator app or a passkey after their password; those without one set it up at their next sign-in."
          checked={data?.required ?? false}
          disabled={!data || busy}
          onChange={(e) => void change(e.currentTarget.checked)}
        />
        {data?.required && <Text fz="xs" c="dimmed">Required since you switched it on; switching it off makes it optional again.</Text>}
      </Stack>
    </Card>
  );
}
