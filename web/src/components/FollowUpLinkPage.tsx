import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { ApiError } from '../api/fetcher';
import { usePatientText } from '../i18n/patient-language';
import { BrandMark } from './BrandMark';
import { LanguageSwitch } from './LanguageSwitch';

/** The frame of a page a patient opens from a follow-up email: one column, large type, phone first, the language switch. */
export function FollowUpLinkPage({ kicker, children }: { kicker: string; children: ReactNode }) {
  return (
    <Stack gap="xl" maw={560} w="100%" mx="auto" py={{ base: 'md', xs: 'xl' }} px={{ base: 4, xs: 0 }} fz={18}>
      <Stack gap={6}>
        <LanguageSwitch />
        <BrandMark size={32} />
        <Text fz="sm" fw={600} c="clinical.7" tt="uppercase" lts={0.6} mt="xs">
          {kicker}
        </Text>
      </Stack>
      {children}
    </Stack>
  );
}

/** What a link page says in the end: its title's and text's keys in the message catalogue. */
export interface LinkOutcome { title: string; text: string }

/** Why a link cannot be answered (used, expired, not valid), from the API's refusal; null for any other failure. */
export function linkRefusalOf(error: unknown): LinkOutcome | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 409) return { title: 'followUp.refusal.answeredTitle', text: 'followUp.refusal.answered' };
  if (error.status === 410) return { title: 'followUp.refusal.expiredTitle', text: 'followUp.refusal.expired' };
  if (error.status === 404) return { title: 'common.linkDoesNotWork', text: 'followUp.refusal.invalid' };
  return null;
}

/** A refused or finished link, said plainly in the page's language (`title` and `text` are catalogue keys). */
export function LinkMessage({ title, text }: LinkOutcome) {
  const { t } = usePatientText();
  return (
    <Paper withBorder radius="lg" p="lg" role="status">
      <Stack gap="sm">
        <Title order={1} fz={26}>
          {t(title)}
        </Title>
        <Text fz={18}>{t(text)}</Text>
      </Stack>
    </Paper>
  );
}
