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
import { showSuccessToast } from '../../shell/success-toast';
import { NotFoundPage } from '../NotFoundPage';

/** /provider-clinic/{accountId}: the Clinical Portal's home for the account in the URL. */
export function ClinicHomePage() {
  const state = useAccountFromUrl('clinicAccess', {
    onSwitched: (account) => showSuccessToast(`You are now working in ${account.name}`),
  });
  const navigate = useNavigate();
  if (state.status === 'not-found') return <NotFoundPage />;
  if (state.status === 'unavailable') return <AccountUnavailable />;
  if (state.status === 'loading') return <PageLoader label="Loading your account" />;
  const { me, account, portalAccounts } = state;
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader title={`Welcome, ${me.user.firstName} ${me.user.lastName}`} subtitle="Clinical Portal" />
      <AccountSummary account={account}>
        <AccountSwitcher
          accounts={portalAccounts}
          currentAccountId={account.id}
          onSwitch={(next) => navigate(clinicHomePath(next.id))}
        />
        {account.researchAccess && (
          <Text fz="sm">
            This account also takes part in research.{' '}
            <Anchor component={Link} to={researchHomePath(account.id)}>
              Open the Research Portal
            </Anchor>
          </Text>
        )}
      </AccountSummary>
      <DocumentList audience="clinic" />
    </Stack>
  );
}
