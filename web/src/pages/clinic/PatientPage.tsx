import type { ReactNode } from 'react';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, Timeline, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { formatCalendarDate, formatDate, formatDateTime, fullName, patientSexLabel, REQUISITION_AWAITS_SIGN_OFF_MESSAGE, SampleStatus, workStatusOf } from '@platform/domain';
import { usePatientDetail, type PatientDetail, type PatientSample } from '../../api/clinic';
import { ApiError } from '../../api/fetcher';
import { PageLoader } from '../../components/PageLoader';
import { NotFoundPage } from '../NotFoundPage';
import { ClinicPageFrame } from './ClinicPageFrame';
import { ReportButton } from './ReportButton';
import { RequisitionButton } from './RequisitionButton';
import { StatusBadge } from './StatusBadge';
import { PatientFollowUps, SampleTools } from './SampleTools';
import { usePatientCancerDiagnoses, type CancerDiagnosisView } from '../../api/follow-ups';

/** /provider-clinic/{accountId}/patient/{patientId}: the patient's details and every sample with its timeline. */
export function PatientPage() {
  const { patientId } = useParams();
  const id = /^\d+$/.test(patientId ?? '') ? Number(patientId) : null;
  return <ClinicPageFrame title="Patient">{(account) => (id ? <PatientView accountId={account.id} patientId={id} /> : <NotFoundPage />)}</ClinicPageFrame>;
}

function PatientView({ accountId, patientId }: { accountId: number; patientId: number }) {
  // A 404 (no such patient, or another account's) is shown here, in the page: no error modal too.
  const { data, error, isLoading } = usePatientDetail(accountId, patientId, { quietStatuses: [404] });
  const diagnoses = usePatientCancerDiagnoses(accountId, data ? patientId : null);
  if (error instanceof ApiError && error.status === 404) {
    return (
      <Alert color="gray" variant="light" title="Patient not found">
        There is no such patient in this account.
      </Alert>
    );
  }
  if (isLoading || (!data && !error)) return <PageLoader label="Loading the patient" />;
  if (!data) {
    return (
      <Alert color="red" variant="light" title="The patient could not be loaded">
        {error?.message}
      </Alert>
    );
  }
  return (
    <Stack gap="lg">
      <PatientCard accountId={accountId} detail={data} />
      <Title order={2} fz="lg">
        Samples ({data.samples.length})
      </Title>
      {data.samples.length === 0 ? (
        <Card withBorder padding="lg">
          <Text c="dimmed">No test has been ordered for this patient yet.</Text>
        </Card>
      ) : (
        data.samples.map((s) => (
          <SampleCard key={s.id} sample={s}>
            <SampleTools accountId={accountId} patientId={patientId} sample={s} diagnosis={diagnoses.data?.find((d: CancerDiagnosisView) => d.sampleId === s.id) ?? null} />
          </SampleCard>
        ))
      )}
      <PatientFollowUps accountId={accountId} patientId={patientId} />
    </Stack>
  );
}

function PatientCard({ accountId, detail }: { accountId: number; detail: PatientDetail }) {
  const p = detail.patient;
  const address = [p.addressLine1, p.addressLine2, [p.city, p.state, p.postalCode].filter(Boolean).join(' '), p.country].filter(Boolean).join(', ');
  const rows: [string, string][] = [
    ['Date of birth', formatCalendarDate(p.dateOfBirth)],
    ['Sex', patientSexLabel(p.sex) || '—'],
    ['Email', p.email ?? '—'],
    ['Phone', p.phone ?? '—'],
    ['Address', address || '—'],
    ['Medical record number', p.medicalRecordNumber ?? '—'],
  ];
  return (
    <Card withBorder padding="lg" component="section" aria-label="Patient details">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} fz="xl">
            {fullName(p)}
          </Title>
          <Button component={Link} to={`/provider-clinic/${accountId}/order?patientId=${p.id}`}>
            New order for this patient
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs">
          {rows.map(([label, value]) => (
            <div key={label}>
              <Text fz="xs" c="dimmed">
                {label}
              </Text>
              <Text>{value}</Text>
            </div>
          ))}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

/** One sample of a patient or research participant: tests, status, documents, timeline, and the page's tools for it. */
export function SampleCard({ sample: s, children }: { sample: PatientSample; children?: ReactNode }) {
  // A stored sample counts by the status its work left it in: its released report stays reachable.
  const work = workStatusOf({ status: s.status as SampleStatus, statusBeforeStorage: s.statusBeforeStorage as SampleStatus | null });
  const finished = work === SampleStatus.Resulted || work === SampleStatus.Completed;
  return (
    <Card withBorder padding="lg" component="article" aria-label={`Sample ${s.barcode}`}>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={2}>
            <Text ff="monospace" fw={700} fz="lg">
              {s.barcode}
            </Text>
            <Text fz="sm" c="dimmed">
              {s.tests.map((t) => t.name).join(', ')} · {s.sampleType ?? 'sample type not given'} · order {s.orderNumber} of {formatDate(s.orderedAt)}
            </Text>
            <Text fz="sm" c="dimmed">
              {s.physician ? `Ordering physician: ${s.physician.name}${s.physician.npi ? ` (NPI ${s.physician.npi})` : ''}` : 'No ordering physician'} · {s.origin}
            </Text>
          </Stack>
          <StatusBadge status={s.status} statusBeforeStorage={s.statusBeforeStorage} />
        </Group>
        {s.rejectionReason && (
          <Alert color="red" variant="light" title="Sample rejected">
            {s.rejectionReason}
          </Alert>
        )}
        <Group gap="sm" wrap="wrap">
          {(s.documents.requisitionForm || s.status === SampleStatus.OrderPlaced) && (
            <RequisitionButton barcode={s.barcode} variant="light" size="sm" unavailableReason={s.requisitionAwaitsSignOff ? REQUISITION_AWAITS_SIGN_OFF_MESSAGE : null} />
          )}
          {finished && s.documents.labReport && (
            <ReportButton sampleId={s.id} barcode={s.barcode} label="Download report" variant="light" size="sm" />
          )}
        </Group>
        {children}
        <div>
          <Text fw={600} mb="xs">
            Timeline
          </Text>
          <Timeline active={s.timeline.length - 1} bulletSize={14} lineWidth={2}>
            {s.timeline.map((e) => (
              <Timeline.Item key={e.id} title={e.to}>
                <Text fz="sm" c="dimmed">
                  {formatDateTime(e.at)} · {e.actor.name}
                </Text>
                {e.reason && <Text fz="sm">{e.reason}</Text>}
              </Timeline.Item>
            ))}
          </Timeline>
        </div>
      </Stack>
    </Card>
  );
}
