import { useState, type ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/fetcher';
import { usePatientText } from '../i18n/patient-language';
import { BrandMark } from './BrandMark';
import { LanguageSwitch } from './LanguageSwitch';
import { PageLoader } from './PageLoader';

/** A follow-up link page's group in the message catalogue: its kicker, loading, loadFailed and thanks texts. */
export type TokenLinkTexts = 'followUp.question' | 'followUp.survey';

/** What a link page's form does with its sending's outcome: given to useFormSubmit as its onSuccess and onError. */
export interface TokenLinkAnswered {
  /** Sent: the page thanks the patient. */
  onSuccess: () => void;
  /** Refused (used, expired, not valid): the page says so; any other failure stays the form's. */
  onError: (error: unknown) => void;
}

/** The single-use token of an emailed link (`?token=…`), or null. */
export function useLinkToken(): string | null {
  const [params] = useSearchParams();
  return params.get('token');
}

const NO_TOKEN: LinkOutcome = { title: 'common.linkDoesNotWork', text: 'followUp.refusal.invalid' };

/**
 * A page a patient opens from a follow-up email's single-use link to answer: the link refused (no
 * token, not valid, expired, already answered), loading, not loaded, or the greeting and what
 * `children` make of the link's data (what is asked, the form); once sent, the thanks, or the
 * refusal the sending met. `query` is the link's data, read with its token.
 */
export function TokenLinkPage<T extends { firstName: string | null }>({ texts, token, query: { data, error, isLoading }, children }: {
  texts: TokenLinkTexts;
  token: string | null;
  query: { data?: T; error?: unknown; isLoading: boolean };
  children: (data: T, token: string, answered: TokenLinkAnswered) => ReactNode;
}) {
  const [done, setDone] = useState<LinkOutcome | null>(null);
  const { t } = usePatientText();

  let body;
  const refused = done ?? (token ? linkRefusalOf(error) : NO_TOKEN);
  if (refused) body = <LinkMessage {...refused} />;
  else if (isLoading || (!data && !error)) body = <PageLoader label={t(`${texts}.loading`)} />;
  else if (!data) body = <LinkMessage title={`${texts}.loadFailed`} text="common.checkConnection" />;
  else {
    const answered: TokenLinkAnswered = {
      onSuccess: () => setDone({ title: 'common.thankYou', text: `${texts}.thanks` }),
      onError: (failure) => {
        const refusal = linkRefusalOf(failure);
        if (refusal) setDone(refusal);
      },
    };
    body = (
      <Stack gap="lg">
        <Title order={1} fz={{ base: 28, xs: 32 }}>
          {data.firstName ? t('common.helloName', { name: data.firstName }) : t('common.hello')}
        </Title>
        {children(data, token!, answered)}
      </Stack>
    );
  }
  return <FollowUpLinkPage kicker={t(`${texts}.kicker`)}>{body}</FollowUpLinkPage>;
}

/** The frame of a page a patient opens from a follow-up email: one column, large type, phone first, the language switch. */
function FollowUpLinkPage({ kicker, children }: { kicker: string; children: ReactNode }) {
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
interface LinkOutcome { title: string; text: string }

/** Why a link cannot be answered (used, expired, not valid), from the API's refusal; null for any other failure. */
function linkRefusalOf(error: unknown): LinkOutcome | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 409) return { title: 'followUp.refusal.answeredTitle', text: 'followUp.refusal.answered' };
  if (error.status === 410) return { title: 'followUp.refusal.expiredTitle', text: 'followUp.refusal.expired' };
  if (error.status === 404) return { title: 'common.linkDoesNotWork', text: 'followUp.refusal.invalid' };
  return null;
}

/** A refused or finished link, said plainly in the page's language (`title` and `text` are catalogue keys). */
function LinkMessage({ title, text }: LinkOutcome) {
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
