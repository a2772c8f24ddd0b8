/**
 * /admin/provider/research-projects: the research projects the lab runs (open ones first) with
 * their accounts, tests, published questionnaire version and participants, and a new project's
 * form; the new project opens on its own page, where its questionnaire is built.
 */
import { Anchor, Badge, Card, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { formatCount } from '@platform/domain';
import { createResearchProject, useAdminResearchProjects, useRefreshAdminResearch } from '../../api/research-projects';
import { RecordTable } from '../../components/RecordTable';
import { showSuccessToast } from '../../shell/success-toast';
import { AdminPageFrame } from './AdminPageFrame';
import { adminResearchProjectPath } from './paths';
import { QueryState, queryFlags } from './QueryState';
import { EMPTY_PROJECT, ResearchProjectFields } from './ResearchProjectFields';

export function ResearchProjectsPage() {
  const projects = useAdminResearchProjects();
  const refresh = useRefreshAdminResearch();
  const navigate = useNavigate();
  return (
    <AdminPageFrame
      title="Research projects"
      subtitle="The studies the lab runs: the accounts taking part, the tests they order, and the questionnaire their participants' study data answers, in versions."
    >
      <Stack gap="lg">
        <QueryState what="research projects" {...queryFlags(projects, (d) => d.length === 0)} emptyText="No research project yet." onRetry={() => void projects.mutate()}>
          <RecordTable minWidth={820} label="Research projects" columns={['Project', 'Accounts taking part', 'Tests', 'Questionnaire', 'Participants', 'Status']}>
            {(projects.data ?? []).map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td><Anchor component={Link} to={adminResearchProjectPath(p.id)} fw={600}>{p.name}</Anchor></Table.Td>
                <Table.Td>{p.accounts.map((a) => a.name).join(', ')}</Table.Td>
                <Table.Td>{p.tests.join(', ')}</Table.Td>
                <Table.Td>
                  {p.publishedVersion ? `Version ${p.publishedVersion}` : 'Not published yet'}
                  {p.hasDraft && <Text fz="xs" c="dimmed">A draft waits</Text>}
                </Table.Td>
                <Table.Td>{formatCount(p.participants)}</Table.Td>
                <Table.Td>{p.closedAt ? <Badge color="gray" variant="light">Closed</Badge> : <Badge color="green" variant="light">Open</Badge>}</Table.Td>
              </Table.Tr>
            ))}
          </RecordTable>
        </QueryState>
        <Card withBorder padding="lg" component="section" aria-labelledby="new-project">
          <Stack gap="sm">
            <Title order={2} fz="lg" id="new-project">New research project</Title>
            <Text fz="sm" c="dimmed">Its questionnaire is built on the project's page; the project takes orders once a version is published.</Text>
            <ResearchProjectFields
              initial={EMPTY_PROJECT}
              submitLabel="Create project"
              errorTitle="Project not created"
              onSubmit={createResearchProject}
              onSaved={(created) => {
                showSuccessToast(`Research project ${created.name} created`);
                void refresh();
                void navigate(adminResearchProjectPath(created.id));
              }}
            />
          </Stack>
        </Card>
      </Stack>
    </AdminPageFrame>
  );
}
