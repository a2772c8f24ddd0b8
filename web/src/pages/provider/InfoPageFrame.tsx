import type { ReactNode } from 'react';
import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { PROVIDER_INFO_LINKS, signInPath } from '../../portals';

/** A public information page for physicians: its title, its content, and where to go next. */
export function InfoPageFrame({ title, subtitle, here, children }: { title: string; subtitle: ReactNode; here: string; children: ReactNode }) {
  return (
    <Stack gap="lg" maw={880}>
      <PageHeader title={title} subtitle={subtitle} />
      {children}
      <Card withBorder padding="lg" component="nav" aria-label="More for physicians">
        <Stack gap={6}>
          <Text fw={600}>More for physicians</Text>
          <Group gap="lg" wrap="wrap">
            {PROVIDER_INFO_LINKS.filter((link) => link.to !== here).map((link) => (
              <Anchor key={link.to} component={Link} to={link.to}>
                {link.label}
              </Anchor>
            ))}
            <Anchor component={Link} to={signInPath('provider')}>
              Sign in to the Clinical Portal to order
            </Anchor>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
