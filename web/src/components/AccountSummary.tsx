import type { ReactNode } from 'react';
import { Badge, Card, Group, Stack, Text, Title, type MantineColor } from '@mantine/core';
import { AccountType, Portal } from '@platform/domain';
import type { MeAccount } from '../api/auth';
import { PartnerLogo } from './PartnerLogo';

function Flag({ children, color = 'clinical' }: { children: ReactNode; color?: MantineColor }) {
  return (
    <Badge variant="light" color={color} radius="sm">
      {children}
    </Badge>
  );
}

/** The account the person is working in: name, type, their role and the account's flags. */
export function AccountSummary({ account, children }: { account: MeAccount; children?: ReactNode }) {
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={6}>
          <Text fz="xs" fw={600} c="dimmed" tt="uppercase" lts={0.6}>
            Current account
          </Text>
          <Title order={2} fz="h3" data-testid="current-account-name">
            {account.name}
          </Title>
          <Text fz="sm" c="dimmed">
            {account.type} account · your role: {account.role}
          </Text>
          <Group gap={6} mt={4}>
            {account.clinicAccess && <Flag>{Portal.Clinical}</Flag>}
            {account.researchAccess && <Flag>{Portal.Research}</Flag>}
            {account.international && <Flag color="indigo">International</Flag>}
            {account.eapPartner && <Flag color="blue">Early Access Program</Flag>}
          </Group>
        </Stack>
        <Stack gap="xs" align="flex-end">
          {account.eapPartner && <PartnerLogo name="eapPartner" height={36} />}
          {account.type === AccountType.MiraKind && <PartnerLogo name="miraKind" height={36} />}
        </Stack>
      </Group>
      {children && <Stack mt="lg">{children}</Stack>}
    </Card>
  );
}
