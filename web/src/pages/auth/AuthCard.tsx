import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import { BrandMark } from '../../components/BrandMark';
import type { SignInPortalInfo } from '../../portals';

/** The card every sign-in, forgot-password and reset page sits in. */
export function AuthCard({ info, title, intro, children }: {
  info: SignInPortalInfo;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Center mih={{ base: 'auto', xs: '80vh' }} py={{ base: 'md', xs: 'xl' }}>
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', xs: 36 }} w="100%" maw={440}>
        <Stack gap="lg">
          <Stack gap={6}>
            <BrandMark size={36} />
            <Text fz="sm" fw={600} c="clinical.7" tt="uppercase" lts={0.6} mt="xs">
              {info.title}
            </Text>
            <Title order={1} fz={26}>
              {title}
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
