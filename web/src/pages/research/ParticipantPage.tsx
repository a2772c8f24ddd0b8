import { Alert, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { patientSexLabel } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { useParticipant, type ParticipantDetail } from '../../api/research';
import { PageLoader } from '../../components/PageLoader';
import { SampleCard } from '../../components/SampleCard';
import { StudyResponseForm } from '../../components/StudyResponseForm';
import { NotFoundPage } from '../NotFoundPage';
import { ResearchPageFrame } from './ResearchPageFrame';
import { formatDate } from '../../format';

/** /provider-research/{accountId}/patient/{patientId}: the participant, what is incomplete, their study responses and samples with timelines. */
export function ParticipantPage() {
  const { patientId } = useParams();
  const id = /^\d+$/.test(patientId ?? '') ? Number(patientId) : null;
  return <ResearchPageFrame title="Participant">{(account) => (id ? <ParticipantView accountId={account.id} patientId={id} /> : <NotFoundPage />)}</ResearchPageFrame>;
}

function ParticipantView({ accountId, patientId }: { accountId: number; patientId: number }) {
  const { data, error, isLoading } = useParticipant(accountId, patientId, { quietStatuses: [404] });
  if (error instanceof ApiError && error.status === 404) {
    return <Alert color="gray" variant="light" title="Participant not found">There is no such participant in this account.</Alert>;
  }
  if (isLoading || (!data && !error)) return <PageLoader label="Loading the participant" />;
  if (!data) return <Alert color="red" variant="light" title="The participant could not be loaded">{error?.message}</Alert>;
  return (
    <Stack gap="lg">
      <ParticipantCard detail={data} />
      <Title order={2} fz="lg">Study responses</Title>
      {data.studyResponses.length === 0 ? (
        <Card withBorder padding="lg"><Text c="dimmed">The participant takes part in no research project of this account.</Text></Card>
      ) : (
        data.studyResponses.map((r) => (
          <Card key={r.id} withBorder padding="lg" component="section">
            <StudyResponseForm portal="research" accountId={accountId} response={r} />
          </Card>
        ))
      )}
      <Title order={2} fz="lg">Samples ({data.samples.length})</Title>
      {data.samples.map((s) => <SampleCard key={s.id} sample={s} />)}
    </Stack>
  );
}

/** Who the participant is, and what is still incomplete. */
function ParticipantCard({ detail }: { detail: ParticipantDetail }) {
  const p = detail.participant;
  const incomplete = detail.studyResponses.filter((r) => !r.complete);
  return (
    <Card withBorder padding="lg" component="section" aria-label="Participant details">
      <Stack gap="sm">
        <Title order={2} fz="xl">{p.name}</Title>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="xs">
          <div><Text fz="xs" c="dimmed">Study ID</Text><Text>{p.studyId ?? '—'}</Text></div>
          <div><Text fz="xs" c="dimmed">Sex</Text><Text>{patientSexLabel(p.sex) || '—'}</Text></div>
          <div><Text fz="xs" c="dimmed">Enrolled</Text><Text>{formatDate(p.createdAt)}</Text></div>
        </SimpleGrid>
        {incomplete.length === 0 ? (
          <Text c="green.9" fw={600}>Nothing is incomplete.</Text>
        ) : (
          <Alert color="orange" variant="light" title="Incomplete">
            {incomplete.map((r) => {
              const labels = r.missing.map((key) => r.questionnaire.definition.questions.find((x) => x.key === key)?.label ?? key);
              return <Group key={r.id} gap={4}><Text fz="sm"><b>{r.project.name}</b>: {labels.join(', ')}</Text></Group>;
            })}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
