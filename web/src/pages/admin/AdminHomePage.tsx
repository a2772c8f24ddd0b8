import { Anchor, Card, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatCount } from '@platform/domain';
import { useMe } from '../../api/auth';
import { useAdminAttention } from '../../api/admin';
import { ClipboardIcon, DocumentIcon, FlaskIcon, HomeIcon, KeyIcon, StethoscopeIcon } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { ToolList, type ToolEntry } from '../../components/ToolList';
import { useStoredUser } from '../../session/stored-user';
import { AA_COLORS } from '../../status-colors';
import { ADMIN_PATHS } from './paths';
import { QueryState, queryFlags } from './QueryState';

/** The administration areas, each linked to its page. */
export const ADMIN_AREAS: readonly ToolEntry[] = [
  { title: 'Provider approvals', description: 'Approve or deny access requests from providers who signed up.', icon: StethoscopeIcon, to: ADMIN_PATHS.approve },
  { title: 'Register a provider', description: 'Add a physician or staff member on their behalf.', icon: ClipboardIcon, to: ADMIN_PATHS.register },
  { title: 'New account', description: 'Create a clinic or research account and set its portal access.', icon: HomeIcon, to: ADMIN_PATHS.newAccount },
  { title: 'Accounts', description: 'Find an account; edit its addresses, portal access, physicians and support mailboxes.', icon: HomeIcon, to: ADMIN_PATHS.accounts },
  { title: 'Users and access', description: 'Add or remove account access, super admins, activate or deactivate users.', icon: KeyIcon, to: ADMIN_PATHS.users },
  { title: 'Emails', description: 'Send sign-up reminders and feedback requests; read what was sent.', icon: DocumentIcon, to: ADMIN_PATHS.emails },
  { title: 'Lab toolbox users', description: 'Add and remove the lab staff who use the Lab Toolbox.', icon: FlaskIcon, to: ADMIN_PATHS.labToolbox },
  { title: 'Insurance plans', description: 'The plans patients can choose when they order.', icon: DocumentIcon, to: ADMIN_PATHS.insurance },
  { title: 'Financial aid', description: 'Patients approved for the financial assistance program.', icon: ClipboardIcon, to: ADMIN_PATHS.financialAid },
  { title: 'Job monitor', description: 'Background work (emails, PDFs, imports): failures and their errors, retry.', icon: KeyIcon, to: ADMIN_PATHS.jobs },
  { title: 'API clients', description: "An account's EHR connections: FHIR API credentials and result webhooks; revoke.", icon: KeyIcon, to: ADMIN_PATHS.apiClients },
  { title: 'HL7 interfaces', description: "Send an account's results to its EHR as HL7 v2 messages; test the connection; resend.", icon: DocumentIcon, to: ADMIN_PATHS.hl7 },
  {
    title: 'Public health reporting',
    description: 'Report COVID-19 results to public health (HL7 v2.5.1 ELR) over MLLP or in a daily batch file; see what was sent and acknowledged.',
    icon: DocumentIcon,
    to: ADMIN_PATHS.publicHealth,
  },
  {
    title: 'Patient release',
    description: 'Per test, whether patients get a released result at once or after their clinic has reviewed it (or a set number of days).',
    icon: ClipboardIcon,
    to: ADMIN_PATHS.patientRelease,
  },
  {
    title: 'Turnaround targets',
    description: 'Per test, how long from receipt to result is on time: the turnaround dashboards count the samples past it.',
    icon: ClipboardIcon,
    to: ADMIN_PATHS.turnaroundTargets,
  },
  {
    title: 'Research projects',
    description: 'Set up a study: the accounts taking part, the tests it orders, its questionnaire (built and published in versions); close it.',
    icon: FlaskIcon,
    to: ADMIN_PATHS.researchProjects,
  },
  { title: 'Audit trail', description: 'Who read or changed what, when and from where; export it (CSV, PDF) and verify its hash chain.', icon: ClipboardIcon, to: ADMIN_PATHS.auditTrail },
];

/** /admin: the administration home after sign-in: what needs attention now, and every tool. */
export function AdminHomePage() {
  const { data: me } = useMe();
  const stored = useStoredUser();
  const firstName = me?.user.firstName ?? stored?.firstName ?? '';
  return (
    <Stack gap="lg" maw={1100}>
      <PageHeader title={firstName ? `Welcome, ${firstName}` : 'Welcome'} subtitle="Administration" />
      <Attention />
      <ToolList tools={ADMIN_AREAS} label="Administration areas" />
    </Stack>
  );
}

function Attention() {
  const attention = useAdminAttention();
  const a = attention.data;
  const items = a
    ? [
        { count: a.pendingProviders, one: 'provider waits for approval', many: 'providers wait for approval', to: ADMIN_PATHS.approve, action: 'Review access requests' },
        { count: a.failedJobs, one: 'background job failed', many: 'background jobs failed', to: `${ADMIN_PATHS.jobs}?status=Failed`, action: 'Open the job monitor' },
        { count: a.failedEmails, one: 'email failed to send', many: 'emails failed to send', to: `${ADMIN_PATHS.emails}?status=Failed`, action: 'Open the email log' },
      ]
    : [];
  const waiting = items.filter((i) => i.count > 0);
  return (
    <Stack gap="sm" component="section" aria-labelledby="attention-title">
      <Title order={2} fz="lg" id="attention-title">
        Needs attention now
      </Title>
      <QueryState what="attention list" {...queryFlags(attention, () => false)} emptyText="" onRetry={() => void attention.mutate()}>
        {waiting.length === 0 ? (
          <Card withBorder padding="md">
            <Text c="dimmed">Nothing waits: no access requests, no failed jobs, no failed emails.</Text>
          </Card>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" component="ul" aria-label="Needs attention now" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {waiting.map((i) => (
              <Card key={i.to} withBorder padding="md" component="li" style={{ borderLeft: `4px solid var(--mantine-color-${i.to === ADMIN_PATHS.approve ? 'blue' : 'red'}-7)` }}>
                <Text fz={28} fw={800} lh={1.1} c={i.to === ADMIN_PATHS.approve ? AA_COLORS.blue : AA_COLORS.red}>
                  {formatCount(i.count)}
                </Text>
                <Text fz="sm">{i.count === 1 ? i.one : i.many}</Text>
                <Anchor component={Link} to={i.to} fz="sm" fw={600} mt={4}>
                  {i.action}
                </Anchor>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </QueryState>
    </Stack>
  );
}
