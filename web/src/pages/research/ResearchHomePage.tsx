import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { AccountSummary } from '../../components/AccountSummary';
import { AccountSwitcher } from '../../components/AccountSwitcher';
import { AccountUnavailable } from '../../components/AccountUnavailable';
import { DocumentList } from '../../components/DocumentList';
import { PageHeader } from '../../components/PageHeader';
import { PageLoader } from '../../components/PageLoader';
import { clinicHomePath, researchHomePath } from '../../portals';
import { useAccountFromUrl } from '../../session/use-account-from-url';
import { NotFoundPage } from '../NotFoundPage';
import { ResearchNavigation } from './ResearchPageFrame';

/** /provider-research/{accountId}: the Research Portal's home for the account in the URL. */
export function ResearchHomePage() {
  const state = useAccountFromUrl('researchAccess');
  const navigate = useNavigate();
  if (state.status === 'not-found') return <NotFoundPage />;
  if (state.status === 'unavailable') return <AccountUnavailable />;
  if (state.status === 'loading') return <PageLoader label="Loading your account" />;
  const { me, account, portalAccounts } = state;
  return (
    <Stack gap="lg" maw={960}>
      <ResearchNavigation accountId={account.id} />
      <PageHeader title={`Welcome, ${me.user.firstName} ${me.user.lastName}`} subtitle="Research Portal" />
      <AccountSummary account={account}>
        <AccountSwitcher
          accounts={portalAccounts}
          currentAccountId={account.id}
          onSwitch={(next) => navigate(researchHomePath(next.id))}
        />
        {account.clinicAccess && (
          <Text fz="sm">
            This account also orders clinical tests.{' '}
            <Anchor component={Link} to={clinicHomePath(account.id)}>
              Open the Clinical Portal
            </Anchor>
          </Text>
        )}
      </AccountSummary>
      <DocumentList audience="research" title="Study documents" />
    </Stack>
  );
}
