import type { ReactNode } from 'react';
import { Stack } from '@mantine/core';
import type { MeAccount } from '../../api/auth';
import { AccountUnavailable } from '../../components/AccountUnavailable';
import { PageHeader } from '../../components/PageHeader';
import { PageLoader } from '../../components/PageLoader';
import { useAccountFromUrl } from '../../session/use-account-from-url';
import { NotFoundPage } from '../NotFoundPage';

/**
 * The frame of every clinic page: the account in the URL must be one of the person's clinic
 * accounts (else the page is not found); its title; the page itself once the account is known.
 */
export function ClinicPageFrame({ title, subtitle, actions, children, maxWidth = 1200 }: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  maxWidth?: number;
  children: (account: MeAccount) => ReactNode;
}) {
  const state = useAccountFromUrl('clinicAccess');
  if (state.status === 'not-found') return <NotFoundPage />;
  if (state.status === 'unavailable') return <AccountUnavailable />;
  if (state.status === 'loading') return <PageLoader label="Loading your account" />;
  return (
    <Stack gap="lg" maw={maxWidth} w="100%">
      <PageHeader title={title} subtitle={subtitle ?? state.account.name} actions={actions} />
      {children(state.account)}
    </Stack>
  );
}
