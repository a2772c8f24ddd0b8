import { useEffect, useMemo, useState } from 'react';
import {
  Alert, Anchor, Button, Card, Checkbox, Divider, Group, List, Select, SimpleGrid, Stack, Text, Title,
} from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import {
  ORDER_ATTESTATIONS, PATIENT_SEX_LABELS, SAMPLE_TYPES, SampleType, type AttestationKey, type Attestations, type PatientSex, type TestName,
} from '@platform/domain';
import {
  placeOrder, useClinicCatalogue, usePatientDetail, usePhysicians, useRefreshClinic, type CreatedOrder, type PatientSummary,
} from '../../api/clinic';
import type { MeAccount } from '../../api/auth';
import { ApiError } from '../../api/fetcher';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';
import { ClinicPageFrame } from './ClinicPageFrame';
import { formatDataDate, fullName } from './format';
import { PatientPicker } from './PatientPicker';
import { RequisitionButton } from './RequisitionButton';
import { patientPath } from './ResultList';

const NO_ATTESTATIONS = Object.fromEntries(ORDER_ATTESTATIONS.map((a) => [a.key, false])) as Attestations;

/**
 * /provider-clinic/{accountId}/order: order a test for a patient. Choose or add the patient,
 * the test(s), the ordering physician and the sample type, confirm the four attestations; the
 * confirmation shows the kit barcode and the requisition form to print and put in the kit.
 */
export function OrderPage() {
  return (
    <ClinicPageFrame title="Order a test" maxWidth={880}>
      {(account) => <OrderForm account={account} />}
    </ClinicPageFrame>
  );
}

type Errors = Partial<Record<'patient' | 'tests' | 'physicianId' | 'sampleType' | 'attestations' | 'form', string>>;

function OrderForm({ account }: { account: MeAccount }) {
  const [params, setParams] = useSearchParams();
  const preselected = Number(params.get('patientId')) || null;
  const { data: preselectedDetail } = usePatientDetail(account.id, preselected);
  const [patient, setPatient] = useState<PatientSummary | null>(null);
  const [tests, setTests] = useState<TestName[]>([]);
  const [physicianId, setPhysicianId] = useState<string | null>(null);
  const [sampleType, setSampleType] = useState<string | null>(SampleType.BuccalSwab);
  const [attestations, setAttestations] = useState<Attestations>(NO_ATTESTATIONS);
  const [errors, setErrors] = useState<Errors>({});
  const [submitting, setSubmitting] = useState(false);
  const [created, setCreated] = useState<{ order: CreatedOrder; patient: PatientSummary; physician: string } | null>(null);
  const physicians = usePhysicians(account.id);
  const catalogue = useClinicCatalogue(account.id);
  const refresh = useRefreshClinic(account.id);

  useEffect(() => {
    if (preselectedDetail && !patient) setPatient(preselectedDetail.patient);
  }, [preselectedDetail, patient]);
  // One physician in the account: they are the ordering physician.
  useEffect(() => {
    if (physicians.data?.length === 1 && physicianId === null) setPhysicianId(String(physicians.data[0].id));
  }, [physicians.data, physicianId]);

  const physicianOptions = useMemo(
    () => (physicians.data ?? []).map((p) => ({ value: String(p.id), label: p.npi ? `${p.name} (NPI ${p.npi})` : p.name })),
    [physicians.data],
  );

  const reset = () => {
    setCreated(null);
    setPatient(null);
    setTests([]);
    setAttestations(NO_ATTESTATIONS);
    setErrors({});
    if (params.has('patientId')) setParams({}, { replace: true });
  };

  const submit = async () => {
    const problems: Errors = {};
    if (!patient) problems.patient = 'Choose the patient';
    if (tests.length === 0) problems.tests = 'Choose at least one test';
    if (!physicianId) problems.physicianId = 'Choose the ordering physician';
    if (!sampleType) problems.sampleType = 'Choose the sample type';
    const missing = ORDER_ATTESTATIONS.filter((a) => !attestations[a.key]);
    if (missing.length) problems.attestations = `Confirm every attestation (${missing.map((a) => a.short).join(', ')} not yet confirmed)`;
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setSubmitting(true);
    try {
      const order = await placeOrder(account.id, {
        patientId: patient!.id,
        tests,
        physicianId: Number(physicianId),
        sampleType: sampleType as SampleType,
        attestations,
      });
      setCreated({ order, patient: patient!, physician: physicians.data?.find((p) => p.id === order.physicianId)?.name ?? '' });
      showSuccessToast(`Order ${order.order.orderNumber} placed: kit ${order.sample.barcode}`);
      void refresh();
      window.scrollTo({ top: 0 });
    } catch (error) {
      if (error instanceof ApiError && (error.status === 400 || error.status === 404)) {
        const next: Errors = {};
        for (const f of error.fields) {
          const key = f.field.startsWith('attestations') ? 'attestations' : f.field.startsWith('tests') ? 'tests' : f.field === 'patientId' ? 'patient' : (f.field as keyof Errors);
          next[key] = next[key] ? `${next[key]}; ${f.message}` : f.message;
        }
        if (!error.fields.length) next.form = error.serverMessage;
        setErrors(next);
      } else {
        reportError(error, 'Error submitting form');
      }
    } finally {
      setSubmitting(false);
    }
  };

  if (created) return <OrderConfirmation accountId={account.id} created={created} onAnother={reset} />;

  return (
    // Not a <form>: the new-patient form sits inside it, and forms do not nest.
    <Stack gap="lg" role="group" aria-label="Order a test">
      <Card withBorder padding="lg" component="section" aria-labelledby="order-patient">
        <Stack gap="sm">
          <Title order={2} fz="lg" id="order-patient">
            1. Patient
          </Title>
          {patient ? (
            <Group justify="space-between" wrap="wrap">
              <div>
                <Text fw={600} fz="lg">
                  {fullName(patient)}
                </Text>
                <Text c="dimmed" fz="sm">
                  Born {formatDataDate(patient.dateOfBirth)}
                  {patient.sex ? ` · ${PATIENT_SEX_LABELS[patient.sex as PatientSex] ?? patient.sex}` : ''}
                </Text>
              </div>
              <Button variant="default" size="xs" onClick={() => setPatient(null)}>
                Change patient
              </Button>
            </Group>
          ) : (
            <PatientPicker accountId={account.id} onPick={(p) => { setPatient(p); setErrors((e) => ({ ...e, patient: undefined })); }} />
          )}
          {errors.patient && <Text c="red.9" fz="sm" role="alert">{errors.patient}</Text>}
        </Stack>
      </Card>

      <Card withBorder padding="lg" component="section" aria-labelledby="order-test">
        <Stack gap="md">
          <Title order={2} fz="lg" id="order-test">
            2. Test and sample
          </Title>
          <Checkbox.Group label="Test" description="Tests the Clinical Portal may order" value={tests} onChange={(v) => setTests(v as TestName[])} error={errors.tests} withAsterisk>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
              {(catalogue.data ?? []).map((t) => (
                <Checkbox key={t.name} value={t.name} label={t.name} description={t.research ? 'Research use only' : undefined} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Select
              label="Ordering physician"
              placeholder={physicians.isLoading ? 'Loading…' : 'Choose'}
              data={physicianOptions}
              value={physicianId}
              onChange={setPhysicianId}
              error={errors.physicianId}
              withAsterisk
              searchable
              nothingFoundMessage="No physician of this account matches"
            />
            <Select label="Sample type" data={SAMPLE_TYPES} value={sampleType} onChange={setSampleType} error={errors.sampleType} withAsterisk allowDeselect={false} />
          </SimpleGrid>
        </Stack>
      </Card>

      <Card withBorder padding="lg" component="section" aria-labelledby="order-attestations">
        <Stack gap="sm">
          <Title order={2} fz="lg" id="order-attestations">
            3. Attestations
          </Title>
          <Text fz="sm" c="dimmed">
            The order can be placed once all four are confirmed.
          </Text>
          {ORDER_ATTESTATIONS.map((a) => (
            <Checkbox
              key={a.key}
              size="md"
              label={a.label}
              checked={attestations[a.key]}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                setAttestations((prev) => ({ ...prev, [a.key as AttestationKey]: checked }));
              }}
            />
          ))}
          <Button
            variant="subtle"
            size="xs"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => setAttestations(Object.fromEntries(ORDER_ATTESTATIONS.map((a) => [a.key, true])) as Attestations)}
          >
            Confirm all four
          </Button>
          {errors.attestations && <Text c="red.9" fz="sm" role="alert">{errors.attestations}</Text>}
        </Stack>
      </Card>

      {errors.form && (
        <Alert color="red" variant="light" role="alert" title="The order was not placed">
          {errors.form}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button size="md" loading={submitting} onClick={() => void submit()}>
          Place order
        </Button>
      </Group>
    </Stack>
  );
}

function OrderConfirmation({ accountId, created, onAnother }: {
  accountId: number;
  created: { order: CreatedOrder; patient: PatientSummary; physician: string };
  onAnother: () => void;
}) {
  const { order, patient, physician } = created;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="order-placed">
      <Stack gap="md">
        <Title order={2} fz="xl" id="order-placed">
          Order placed
        </Title>
        <div>
          <Text c="dimmed" fz="sm">
            Kit barcode
          </Text>
          <Text ff="monospace" fw={700} fz={{ base: 28, xs: 36 }} data-testid="kit-barcode" style={{ letterSpacing: 2 }}>
            {order.sample.barcode}
          </Text>
        </div>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <Text>
            <Text span c="dimmed">Order number: </Text>
            {order.order.orderNumber}
          </Text>
          <Text>
            <Text span c="dimmed">Patient: </Text>
            {fullName(patient)} (born {formatDataDate(patient.dateOfBirth)})
          </Text>
          <Text>
            <Text span c="dimmed">Test: </Text>
            {order.tests.map((t) => t.name).join(', ')}
          </Text>
          <Text>
            <Text span c="dimmed">Sample type: </Text>
            {order.sample.sampleType}
          </Text>
          {physician && (
            <Text>
              <Text span c="dimmed">Ordering physician: </Text>
              {physician}
            </Text>
          )}
        </SimpleGrid>
        <Divider />
        <Text fw={600}>Next steps</Text>
        <List type="ordered" spacing={4}>
          <List.Item>Print the requisition form and put it in the kit.</List.Item>
          <List.Item>Collect the sample in the kit labelled {order.sample.barcode}.</List.Item>
          <List.Item>
            Add the kit to a shipment on the{' '}
            <Anchor component={Link} to={`/provider-clinic/${accountId}/shipments`}>
              Shipments
            </Anchor>{' '}
            page.
          </List.Item>
        </List>
        <Group gap="sm" wrap="wrap">
          <RequisitionButton barcode={order.sample.barcode} size="md" />
          <Button variant="default" size="md" component={Link} to={patientPath(accountId, order.patientId)}>
            Open the patient
          </Button>
          <Button variant="subtle" size="md" onClick={onAnother}>
            Place another order
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
