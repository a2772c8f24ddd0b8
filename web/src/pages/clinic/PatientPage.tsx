import { Alert, Anchor, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { PatientTexts } from './PatientTexts';
import { AccountRole, formatCalendarDate, fullName, patientSexLabel } from '@platform/domain';
import { usePatientDetail, type PatientDetail } from '../../api/clinic';
import { ApiError } from '../../api/fetcher';
import { PageLoader } from '../../components/PageLoader';
import { SampleCard } from '../../components/SampleCard';
import { clinicHomePath } from '../../portals';
import { NotFoundPage } from '../NotFoundPage';
import { ClinicPageFrame } from './ClinicPageFrame';
import { PatientFollowUps, SampleTools } from './SampleTools';
import { usePatientCancerDiagnoses, type CancerDiagnosisView } from '../../api/follow-ups';
import { CorrectionsHistory, CorrectPatientButton, SampleOrderDetails } from './PatientCorrections';

/** /provider-clinic/{accountId}/patient/{patientId}: the patient's details and every sample with its timeline. */
export function PatientPage() {
  const { patientId } = useParams();
  const id = /^\d+$/.test(patientId ?? '') ? Number(patientId) : null;
  return <ClinicPageFrame title="Patient">{(account) => (id ? <PatientView accountId={account.id} patientId={id} superAdmin={account.role === AccountRole.SuperAdmin} /> : <NotFoundPage />)}</ClinicPageFrame>;
}

function PatientView({ accountId, patientId, superAdmin }: { accountId: number; patientId: number; superAdmin: boolean }) {
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
      <CorrectionsHistory corrections={data.corrections} />
      <PatientTexts accountId={accountId} patientId={patientId} />
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
            <SampleOrderDetails accountId={accountId} sample={s} />
            <SampleTools accountId={accountId} patientId={patientId} sample={s} diagnosis={diagnoses.data?.find((d: CancerDiagnosisView) => d.sampleId === s.id) ?? null} />
            {superAdmin && (
              <Anchor component={Link} to={`${clinicHomePath(accountId)}/audit-trail?barcode=${encodeURIComponent(s.barcode)}`} fz="sm">
                Audit trail of sample {s.barcode}
              </Anchor>
            )}
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
          <Group gap="sm">
            <CorrectPatientButton accountId={accountId} patient={p} />
            <Button component={Link} to={`/provider-clinic/${accountId}/order?patientId=${p.id}`}>
              New order for this patient
            </Button>
          </Group>
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
