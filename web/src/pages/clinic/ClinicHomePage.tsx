import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { AccountSummary } from '../../components/AccountSummary';
import { AccountSwitcher } from '../../components/AccountSwitcher';
import { AccountUnavailable } from '../../components/AccountUnavailable';
import { DocumentList } from '../../components/DocumentList';
import { DocumentIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { PageLoader } from '../../components/PageLoader';
import { ToolList, type ToolEntry } from '../../components/ToolList';
import { clinicHomePath, researchHomePath } from '../../portals';
import { useAccountFromUrl } from '../../session/use-account-from-url';
import { showSuccessToast } from '../../shell/success-toast';
import { NotFoundPage } from '../NotFoundPage';
import { AccountRole, takesPartInResearch } from '@platform/domain';
import type { MeAccount } from '../../api/auth';
import { useResearchProjects } from '../../api/research';
import { ClipboardIcon, KeyIcon } from '../../components/icons';
import { CompletedIcon, OrderIcon, PendingIcon, TruckIcon, UsersIcon } from './clinic-icons';
import { ClinicNeeds } from './ClinicNeeds';

function clinicTools(account: MeAccount, inResearch: boolean): ToolEntry[] {
  const base = clinicHomePath(account.id);
  const tools: ToolEntry[] = [
    { title: 'Order a test', description: 'Find or add the patient, choose the test, confirm the attestations, print the requisition form.', icon: OrderIcon, to: `${base}/order` },
    { title: 'Pending tests', description: 'Samples ordered and not resulted yet, and the tests your patients ordered themselves.', icon: PendingIcon, to: `${base}/pending` },
    { title: 'Completed tests', description: 'Released results: download the report, send the patient their result email.', icon: CompletedIcon, to: `${base}/completed` },
    { title: 'Shipments', description: 'Put the kits waiting at the clinic in a shipment and follow it to the lab.', icon: TruckIcon, to: `${base}/shipments` },
    { title: 'Turnaround', description: 'How long your samples take from shipping to result, which are late and where each is, and your rejections.', icon: PendingIcon, to: `${base}/turnaround` },
    { title: 'Resources', description: 'Swabbing instructions, patient information, financial assistance and the technical note.', icon: DocumentIcon, to: `${base}/resources` },
  ];
  if (inResearch) {
    tools.push({ title: 'Research projects', description: 'PROSTOX Research: complete the study responses of your enrolled patients.', icon: ClipboardIcon, to: `${base}/research-projects` });
  }
  if (account.role === AccountRole.SuperAdmin) {
    tools.push({ title: 'Account users', description: "Add the account's users, set their roles and access, link support staff to their physicians.", icon: UsersIcon, to: `${base}/users` });
    tools.push({ title: 'API clients', description: 'Connect your EHR or practice system: FHIR API credentials and result webhooks.', icon: KeyIcon, to: `${base}/api-clients` });
    tools.push({ title: 'Audit trail', description: "Who read or changed your account's patients, samples and users; export it as CSV or PDF.", icon: ClipboardIcon, to: `${base}/audit-trail` });
  }
  return tools;
}

/** /provider-clinic/{accountId}: the Clinical Portal's home for the account in the URL. */
export function ClinicHomePage() {
  const state = useAccountFromUrl('clinicAccess', {
    onSwitched: (account) => showSuccessToast(`You are now working in ${account.name}`),
  });
  const navigate = useNavigate();
  // Its research projects (an empty list for an account taking part in none).
  const research = useResearchProjects('clinic', state.status === 'ready' ? state.account.id : null);
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
      <ClinicNeeds accountId={account.id} />
      <ToolList tools={clinicTools(account, research.data !== undefined && takesPartInResearch(account, research.data.length))} label="Clinical Portal" />
      <DocumentList audience="clinic" />
    </Stack>
  );
}
