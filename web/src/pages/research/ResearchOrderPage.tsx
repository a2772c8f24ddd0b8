import { useEffect, useMemo, useState } from 'react';
import { Anchor, Button, Card, Checkbox, Divider, Group, List, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router-dom';
import {
  attestationsFor, describeStudyIdProblem, PATIENT_SEX_LABELS, PATIENT_SEXES, Portal, SAMPLE_TYPES, SampleType, type AttestationKey, type PatientSex,
  type TestName,
} from '@platform/domain';
import type { MeAccount } from '../../api/auth';
import { ApiError } from '../../api/fetcher';
import {
  placeResearchOrder, useParticipant, useRefreshResearch, useResearchCatalogue, useResearchPhysicians, useResearchProjects, type CreatedResearchOrder,
} from '../../api/research';
import { StudyResponseForm } from '../../components/StudyResponseForm';
import { FormError } from '../../components/FormError';
import { Notice } from '../../components/Notice';
import { useFormSubmit } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';
import { RequisitionButton } from '../../components/RequisitionButton';
import { participantPath, researchPath, ResearchPageFrame } from './ResearchPageFrame';

const ATTESTATIONS = attestationsFor(Portal.Research);
const NONE_ATTESTED = Object.fromEntries(ATTESTATIONS.map((a) => [a.key, false])) as Record<AttestationKey, boolean>;

/** /provider-research/{accountId}/order: a research kit for a participant known by a study id. */
export function ResearchOrderPage() {
  return (
    <ResearchPageFrame title="Order a research test" maxWidth={880}>
      {(account) => <ResearchOrderForm account={account} />}
    </ResearchPageFrame>
  );
}

interface Values {
  projectId: string | null;
  studyId: string;
  sex: string | null;
  tests: TestName[];
  physicianId: string | null;
  sampleType: string | null;
  attestations: Record<AttestationKey, boolean>;
}

const isFormsToShow = (error: unknown) => error instanceof ApiError && (error.status === 400 || error.status === 404);

function ResearchOrderForm({ account }: { account: MeAccount }) {
  const allProjects = useResearchProjects('research', account.id);
  // A closed project, or one whose questionnaire the lab has not published yet, takes no orders.
  const orderable = useMemo(() => allProjects.data?.filter((p) => !p.closedAt && p.questionnaire), [allProjects.data]);
  const projects = { ...allProjects, data: orderable };
  const catalogue = useResearchCatalogue(account.id);
  const physicians = useResearchPhysicians(account.id);
  const refresh = useRefreshResearch(account.id);
  const [created, setCreated] = useState<CreatedResearchOrder | null>(null);
  const form = useForm<Values>({
    initialValues: { projectId: null, studyId: '', sex: null, tests: [], physicianId: null, sampleType: SampleType.Saliva, attestations: NONE_ATTESTED },
    validate: {
      projectId: (v) => (v ? null : 'Choose the research project'),
      studyId: (v) => describeStudyIdProblem(v),
      tests: (v) => (v.length ? null : 'Choose at least one test'),
      physicianId: (v) => (v ? null : 'Choose the ordering physician'),
      sampleType: (v) => (v ? null : 'Choose the sample type'),
      attestations: (v) => {
        const missing = ATTESTATIONS.filter((a) => !v[a.key]);
        return missing.length ? `Confirm every attestation (${missing.map((a) => a.short).join(', ')} not yet confirmed)` : null;
      },
    },
  });
  const values = form.getValues();
  // One project, one physician: chosen for the person.
  useEffect(() => {
    if (projects.data?.length === 1 && !form.getValues().projectId) form.setFieldValue('projectId', String(projects.data[0].id));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [projects.data]);
  useEffect(() => {
    const own = physicians.data?.length === 1 ? physicians.data[0] : physicians.data?.find((p) => p.isCaller);
    if (own && !form.getValues().physicianId) form.setFieldValue('physicianId', String(own.id));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [physicians.data]);

  const project = projects.data?.find((p) => String(p.id) === values.projectId) ?? null;
  const tests = useMemo(() => (catalogue.data ?? []).filter((t) => !project || project.tests.includes(t.name)), [catalogue.data, project]);

  const sending = useFormSubmit(form, (v) => placeResearchOrder(account.id, {
    projectId: Number(v.projectId), studyId: v.studyId.trim(), sex: (v.sex as PatientSex | null) ?? null, tests: v.tests,
    physicianId: Number(v.physicianId), sampleType: v.sampleType as SampleType, attestations: v.attestations,
  }), {
    onSuccess: (result) => {
      setCreated(result);
      void refresh();
      window.scrollTo({ top: 0 });
    },
    onError: (error) => {
      if (!isFormsToShow(error)) reportError(error, 'Error submitting form');
    },
  });

  if (created) {
    return (
      <Card withBorder padding="lg" component="section" aria-labelledby="order-placed">
        <Stack gap="md">
          <Title order={2} fz="xl" id="order-placed">Order placed</Title>
          <div>
            <Text c="dimmed" fz="sm">Kit barcode</Text>
            <Text ff="monospace" fw={700} fz={{ base: 28, xs: 36 }} data-testid="kit-barcode" style={{ letterSpacing: 2 }}>{created.sample.barcode}</Text>
          </div>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
            <Text><Text span c="dimmed">Order number: </Text>{created.order.orderNumber}</Text>
            <Text><Text span c="dimmed">Participant: </Text>Study ID {created.participant.studyId}{created.participant.created ? ' (new)' : ''}</Text>
            <Text><Text span c="dimmed">Tests: </Text>{created.tests.map((t) => t.name).join(', ')}</Text>
            <Text><Text span c="dimmed">Sample type: </Text>{created.sample.sampleType}</Text>
          </SimpleGrid>
          <Divider />
          <List type="ordered" spacing={4}>
            <List.Item>Print the requisition form and put it in the kit.</List.Item>
            <List.Item>Collect the sample in the kit labelled {created.sample.barcode}.</List.Item>
            <List.Item>Ship the kit from the <Anchor component={Link} to={researchPath(account.id, 'tests')}>Tests</Anchor> page, and complete the participant’s study response.</List.Item>
          </List>
          <Group gap="sm" wrap="wrap">
            <RequisitionButton barcode={created.sample.barcode} size="md" />
            <Button variant="default" size="md" component={Link} to={participantPath(account.id, created.participant.id)}>Open the participant</Button>
            <Button variant="subtle" size="md" onClick={() => { setCreated(null); form.reset(); sending.reset(); }}>Place another order</Button>
          </Group>
          <Divider />
          <OrderedStudyResponse accountId={account.id} created={created} />
        </Stack>
      </Card>
    );
  }

  if (projects.data && projects.data.length === 0) {
    return <Notice color="orange" title="No research project">This account has no open research project yet. Ask the lab to set one up before ordering.</Notice>;
  }

  return (
    <form onSubmit={sending.onSubmit} aria-label="Order a research test" noValidate>
      <Stack gap="lg">
        <Card withBorder padding="lg" component="section" aria-labelledby="order-participant">
          <Stack gap="sm">
            <Title order={2} fz="lg" id="order-participant">1. Study and participant</Title>
            <Select
              label="Research project" data={(projects.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))} withAsterisk allowDeselect={false}
              placeholder={projects.isLoading ? 'Loading…' : 'Choose'} {...form.getInputProps('projectId')}
            />
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <TextInput
                label="Study ID" withAsterisk autoComplete="off" placeholder="e.g. KRAS-WH-0042"
                description="The participant's study id: no name or date of birth is sent." {...form.getInputProps('studyId')}
              />
              <Select label="Sex" data={PATIENT_SEXES.map((s) => ({ value: s, label: PATIENT_SEX_LABELS[s] }))} clearable placeholder="Not given" {...form.getInputProps('sex')} />
            </SimpleGrid>
          </Stack>
        </Card>
        <Card withBorder padding="lg" component="section" aria-labelledby="order-tests">
          <Stack gap="md">
            <Title order={2} fz="lg" id="order-tests">2. Tests and sample</Title>
            <Checkbox.Group label="Tests" description="Research Portal tests the project uses" withAsterisk {...form.getInputProps('tests')}>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
                {tests.map((t) => <Checkbox key={t.name} value={t.name} label={t.name} description={t.research ? 'Research use only' : undefined} />)}
              </SimpleGrid>
            </Checkbox.Group>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Select
                label="Ordering physician" withAsterisk allowDeselect={false} placeholder="Choose"
                data={(physicians.data ?? []).map((p) => ({ value: String(p.id), label: p.npi ? `${p.name} (NPI ${p.npi})` : p.name }))} {...form.getInputProps('physicianId')}
              />
              <Select label="Sample type" data={SAMPLE_TYPES} withAsterisk allowDeselect={false} {...form.getInputProps('sampleType')} />
            </SimpleGrid>
          </Stack>
        </Card>
        <Card withBorder padding="lg" component="section" aria-labelledby="order-attestations">
          <Stack gap="sm">
            <Title order={2} fz="lg" id="order-attestations">3. Attestations</Title>
            <Text fz="sm" c="dimmed">A research order is not billed and not for patient care: these two apply.</Text>
            {ATTESTATIONS.map((a) => (
              <Checkbox key={a.key} size="md" label={a.label} checked={values.attestations[a.key]}
                onChange={(e) => form.setFieldValue('attestations', { ...form.getValues().attestations, [a.key]: e.currentTarget.checked })} />
            ))}
            {form.errors.attestations && <Text c="red.9" fz="sm" role="alert">{form.errors.attestations}</Text>}
          </Stack>
        </Card>
        <FormError title="The order was not placed" error={isFormsToShow(sending.error) ? sending.error : undefined} />
        <Group justify="flex-end">
          <Button type="submit" size="md" loading={sending.submitting}>Place order</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The participant's study response in the project just ordered for, to fill now or later (the questionnaire version it answers). */
function OrderedStudyResponse({ accountId, created }: { accountId: number; created: CreatedResearchOrder }) {
  const participant = useParticipant(accountId, created.participant.id);
  const response = participant.data?.studyResponses.find((r) => r.id === created.studyResponseId);
  if (!response) return null;
  return <StudyResponseForm portal="research" accountId={accountId} response={response} />;
}
