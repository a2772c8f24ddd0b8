import type { ReactNode } from 'react';
import { Stack, Text, Title } from '@mantine/core';
import { BrandMark } from '../../components/BrandMark';
import { LanguageSwitch } from '../../components/LanguageSwitch';

/** A Patient Portal page: one column for a phone first, the language switch, the brand, a small kicker and the page's heading. */
export function PatientPortalFrame({ kicker, title, children }: { kicker: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="lg" maw={600} w="100%" mx="auto" py={{ base: 'md', xs: 'xl' }} px={{ base: 4, xs: 0 }} fz={17}>
      <Stack gap={6}>
        <LanguageSwitch />
        <BrandMark size={32} />
        <Text fz="sm" fw={600} c="clinical.7" tt="uppercase" lts={0.6} mt="xs">
          {kicker}
        </Text>
        <Title order={1} fz={{ base: 26, xs: 30 }}>
          {title}
        </Title>
      </Stack>
      {children}
    </Stack>
  );
}
