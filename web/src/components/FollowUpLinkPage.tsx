import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { FOLLOW_UP_LINK_MESSAGES } from '@platform/domain';
import { ApiError } from '../api/fetcher';
import { BrandMark } from './BrandMark';

/** The frame of a page a patient opens from a follow-up email: one column, large type, phone first. */
export function FollowUpLinkPage({ kicker, children }: { kicker: string; children: ReactNode }) {
  return (
    <Stack gap="xl" maw={560} w="100%" mx="auto" py={{ base: 'md', xs: 'xl' }} px={{ base: 4, xs: 0 }} fz={18}>
      <Stack gap={6}>
        <BrandMark size={32} />
        <Text fz="sm" fw={600} c="clinical.7" tt="uppercase" lts={0.6} mt="xs">
          {kicker}
        </Text>
      </Stack>
      {children}
    </Stack>
  );
}

/** Why a link cannot be answered (used, expired, not valid), from the API's refusal; null for any other failure. */
export function linkRefusalOf(error: unknown): { title: string; text: string } | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 409) return { title: 'Already answered', text: FOLLOW_UP_LINK_MESSAGES.answered };
  if (error.status === 410) return { title: 'This link has expired', text: FOLLOW_UP_LINK_MESSAGES.expired };
  if (error.status === 404) return { title: 'This link does not work', text: FOLLOW_UP_LINK_MESSAGES.invalid };
  return null;
}

/** A refused or finished link, said plainly. */
export function LinkMessage({ title, text }: { title: string; text: string }) {
  return (
    <Paper withBorder radius="lg" p="lg" role="status">
      <Stack gap="sm">
        <Title order={1} fz={26}>
          {title}
        </Title>
        <Text fz={18}>{text}</Text>
      </Stack>
    </Paper>
  );
}
