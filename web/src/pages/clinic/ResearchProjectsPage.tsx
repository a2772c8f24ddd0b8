import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { DEFAULT_PAGE_SIZE, takesPartInResearch } from '@platform/domain';
import type { MeAccount } from '../../api/auth';
import { useResearchProjects, useStudyResponses, type ResearchProjectView, type StudyResponseView } from '../../api/research';
import { Pager } from '../../components/Pager';
import { PageLoader } from '../../components/PageLoader';
import { StudyResponseForm } from '../../components/StudyResponseForm';
import { ClinicPageFrame } from './ClinicPageFrame';
import { patientPath } from './ResultList';
import { formatDate } from '../../format';

/**
 * /provider-clinic/{accountId}/research-projects: for a clinic taking part in PROSTOX Research
 * (a PROSTOX Research Partner, or an account with a project): its projects and the study
 * responses of its patients, which the clinic fills here (the same form as the Research Portal's).
 */
export function ResearchProjectsPage() {
  return <ClinicPageFrame title="Research projects">{(account) => <ProjectsView account={account} />}</ClinicPageFrame>;
}

function ProjectsView({ account }: { account: MeAccount }) {
  const accountId = account.id;
  const projects = useResearchProjects('clinic', accountId);
  if (!projects.data) return projects.error ? null : <PageLoader label="Loading the research projects" />;
  if (!takesPartInResearch(account, projects.data.length)) {
    return <Alert color="gray" variant="light" title="No research projects">This account takes part in no research project.</Alert>;
  }
  return (
    <Stack gap="lg">
      {projects.data.length === 0 ? (
        <Card withBorder padding="lg"><Text c="dimmed">This account is a PROSTOX Research partner with no project yet: patients ordered PROSTOX Research are enrolled once the lab sets one up.</Text></Card>
      ) : (
        projects.data.map((p) => <ProjectCard key={p.id} project={p} />)
      )}
      <Title order={2} fz="lg">Study responses</Title>
      <Responses accountId={accountId} />
    </Stack>
  );
}

function ProjectCard({ project: p }: { project: ResearchProjectView }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={`Project ${p.name}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} fz="lg">{p.name}</Title>
          <Badge color={p.incomplete ? 'orange' : 'green'} variant="light">{p.incomplete} of {p.participants} incomplete</Badge>
        </Group>
        <Text fz="sm">
          Tests: {p.tests.join(', ')} · {p.questionnaire ? `${p.questionnaire.title} (version ${p.questionnaire.version})` : 'Questionnaire not published yet'}
          {p.closedAt ? ' · Closed: no new orders' : ''}
        </Text>
        <Group gap="md">
          {p.protocol && <Anchor href={p.protocol} target="_blank" rel="noopener">Protocol</Anchor>}
          {p.consentDocument && <Anchor href={p.consentDocument} target="_blank" rel="noopener">Consent document</Anchor>}
        </Group>
      </Stack>
    </Card>
  );
}

function Responses({ accountId }: { accountId: number }) {
  const [page, setPage] = useState(1);
  const [onlyIncomplete, setOnlyIncomplete] = useState(true);
  const { data, incomplete } = useStudyResponses('clinic', accountId, { page, pageSize: DEFAULT_PAGE_SIZE, incomplete: onlyIncomplete ? true : undefined });
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Text aria-live="polite">{incomplete === undefined ? '' : `${incomplete} ${incomplete === 1 ? 'patient has' : 'patients have'} an incomplete study response`}</Text>
        <SegmentedControl aria-label="Which responses" value={onlyIncomplete ? 'incomplete' : 'all'} onChange={(v) => { setOnlyIncomplete(v === 'incomplete'); setPage(1); }}
          data={[{ value: 'incomplete', label: 'Incomplete' }, { value: 'all', label: 'All' }]} />
      </Group>
      {data && data.rows.length === 0 && <Card withBorder padding="lg"><Text c="dimmed">{onlyIncomplete ? 'Every study response is complete.' : 'No study responses yet.'}</Text></Card>}
      {data?.rows.map((r) => <ResponseCard key={r.id} accountId={accountId} response={r} />)}
      <Pager page={page} pageSize={DEFAULT_PAGE_SIZE} total={data?.total ?? 0} onPage={setPage} noun="responses" />
    </Stack>
  );
}

function ResponseCard({ accountId, response: r }: { accountId: number; response: StudyResponseView }) {
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder padding="md" component="article" aria-label={`Study response of ${r.participant.name}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={2}>
            <Anchor component={Link} to={patientPath(accountId, r.participant.id)} fw={600}>{r.participant.name}</Anchor>
            <Text fz="sm" c="dimmed">{r.project.name} · updated {formatDate(r.updatedAt)}</Text>
          </Stack>
          <Group gap="xs">
            <Badge color={r.complete ? 'green' : 'orange'} variant="light">{r.complete ? 'Complete' : `${r.missing.length} missing`}</Badge>
            <Button size="xs" variant="light" onClick={() => setOpen((o) => !o)} aria-expanded={open}>{open ? 'Close' : 'Fill in'}</Button>
          </Group>
        </Group>
        {open && <StudyResponseForm portal="clinic" accountId={accountId} response={r} />}
      </Stack>
    </Card>
  );
}
