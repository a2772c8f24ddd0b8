import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Anchor, Button, Card, Checkbox, Divider, Group, List, Select, SimpleGrid, Stack, Text, TextInput, Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useSearchParams } from 'react-router-dom';
import {
  type Attestations, DIAGNOSIS_REQUIRED_MESSAGE, diagnosisRequiredFor, formatCalendarDate, fullName, ORDER_ATTESTATIONS, PATIENT_SEX_LABELS, type PatientSex, SAMPLE_TYPES, SampleType, type TestName,
} from '@platform/domain';
import type { MeAccount } from '../../api/auth';
import {
  placeOrder, useClinicCatalogue, useOrderingPhysicians, usePatientDetail, useRefreshClinic, type CreatedOrder, type PatientSummary, type PhysicianOption,
} from '../../api/clinic';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { AttestationChecklist } from '../../components/AttestationChecklist';
import { Notice } from '../../components/Notice';
import { useFormSubmit } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';
import { ClinicPageFrame } from './ClinicPageFrame';
import { PatientPicker } from './PatientPicker';
import { DiagnosisPicker } from './DiagnosisPicker';
import type { DiagnosisCodeView } from '../../api/clinical-orders';
import { RequisitionButton } from '../../components/RequisitionButton';
import { patientPath } from './ResultList';
import { localInputToIso, nowLocalInput } from '../../format';

const NO_ATTESTATIONS = Object.fromEntries(ORDER_ATTESTATIONS.map((a) => [a.key, false])) as Attestations;

export function OrderPage() {
  return (
    <ClinicPageFrame title="Order a test" maxWidth={880}>
      {(account) => <OrderForm account={account} />}
    </ClinicPageFrame>
  );
}

interface OrderValues {
  patient: PatientSummary | null;
  tests: TestName[];
  physicianId: string | null;
  sampleType: string | null;
  attestations: Attestations;
  /** When the clinic collected the sample, if it already has (datetime-local; '' when not yet: the lab asks at receipt). */
  collectedAt: string;
  /** ICD-10-CM codes (required when a test is billed: diagnosisRequiredFor). */
  diagnoses: DiagnosisCodeView[];
}

/** Where the server's field paths land on the form. */
function orderFieldOf(field: string): keyof OrderValues | undefined {
  if (field === 'patientId') return 'patient';
  if (field.startsWith('diagnosisCodes')) return 'diagnoses';
  const head = field.split('.')[0];
  return ['tests', 'physicianId', 'sampleType', 'attestations', 'collectedAt'].includes(head) ? (head as keyof OrderValues) : undefined;
}

/** The physician to pre-select: the only one of the account, or the signed-in user's own physician record. */
export function defaultPhysician(physicians: PhysicianOption[]): PhysicianOption | null {
  if (physicians.length === 1) return physicians[0];
  return physicians.find((p) => p.isCaller) ?? null;
}

/** An order names a physician the person may order for; with none, nothing can be ordered. */
export const NO_PHYSICIAN_NOTICE = "You are not linked to any physician of this account. Ask your account's super admin to link you.";

/** A submit failure the form itself explains (the others open the error modal). */
const isFormsToShow = (error: unknown) => error instanceof ApiError && (error.status === 400 || error.status === 404);

function OrderForm({ account }: { account: MeAccount }) {
  const [params, setParams] = useSearchParams();
  const preselected = Number(params.get('patientId')) || null;
  const { data: preselectedDetail } = usePatientDetail(account.id, preselected);
  const [created, setCreated] = useState<{ order: CreatedOrder; patient: PatientSummary; physician: string } | null>(null);
  // Only the physicians this person may order for (themself, the ones they are linked to, or all for a super admin).
  const physicians = useOrderingPhysicians(account.id);
  const noPhysician = physicians.data !== undefined && physicians.data.length === 0;
  const catalogue = useClinicCatalogue(account.id);
  const refresh = useRefreshClinic(account.id);

  const form = useForm<OrderValues>({
    initialValues: { patient: null, tests: [], physicianId: null, sampleType: SampleType.BuccalSwab, attestations: NO_ATTESTATIONS, collectedAt: '', diagnoses: [] },
    validate: {
      diagnoses: (value, values) => (!value.length && diagnosisRequiredFor(values.tests) ? DIAGNOSIS_REQUIRED_MESSAGE : null),
      patient: (value) => (value ? null : 'Choose the patient'),
      tests: (value) => (value.length ? null : 'Choose at least one test'),
      physicianId: (value) => (value ? null : 'Choose the ordering physician'),
      sampleType: (value) => (value ? null : 'Choose the sample type'),
      collectedAt: (value) => {
        if (!value) return null;
        const iso = localInputToIso(value);
        if (!iso) return 'Type the date and time the sample was collected';
        return new Date(iso).getTime() > Date.now() ? 'The collection time cannot be in the future' : null;
      },
      attestations: (value) => {
        const missing = ORDER_ATTESTATIONS.filter((a) => !value[a.key]);
        return missing.length ? `Confirm every attestation (${missing.map((a) => a.short).join(', ')} not yet confirmed)` : null;
      },
    },
  });
  const { patient, tests, physicianId, sampleType, attestations, collectedAt, diagnoses } = form.getValues();

  /** A change to one field; a field showing an error is checked again at once, so a fixed field loses its error. */
  const change = <K extends keyof OrderValues>(field: K, value: OrderValues[K]) => {
    form.setFieldValue(field, value as never);
    if (form.errors[field]) form.validateField(field);
  };

  const sending = useFormSubmit(
    form,
    (values) =>
      placeOrder(account.id, {
        patientId: values.patient!.id,
        tests: values.tests,
        physicianId: Number(values.physicianId),
        sampleType: values.sampleType as SampleType,
        attestations: values.attestations,
        diagnosisCodes: values.diagnoses.map((d) => d.code),
        // Only when the clinic has collected already; the lab asks for it at receipt otherwise.
        ...(values.collectedAt ? { collectedAt: localInputToIso(values.collectedAt) } : {}),
      }),
    {
      fieldOf: orderFieldOf,
      onSuccess: (order, values) => {
        setCreated({ order, patient: values.patient!, physician: physicians.data?.find((p) => p.id === order.physicianId)?.name ?? '' });
        showSuccessToast(`Order ${order.order.orderNumber} placed: kit ${order.sample.barcode}`);
        void refresh();
        window.scrollTo({ top: 0 });
      },
      onError: (error) => {
        if (!isFormsToShow(error)) reportError(error, 'Error submitting form');
      },
    },
  );

  useEffect(() => {
    if (preselectedDetail && !form.getValues().patient) change('patient', preselectedDetail.patient);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [preselectedDetail]);
  // The ordering physician is chosen for the person when there is one obvious choice (once).
  const physicianDefaulted = useRef(false);
  useEffect(() => {
    if (physicianDefaulted.current || !physicians.data) return;
    physicianDefaulted.current = true;
    const choice = defaultPhysician(physicians.data);
    if (choice && form.getValues().physicianId === null) change('physicianId', String(choice.id));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [physicians.data]);

  const physicianOptions = useMemo(
    () => (physicians.data ?? []).map((p) => ({ value: String(p.id), label: p.npi ? `${p.name} (NPI ${p.npi})` : p.name })),
    [physicians.data],
  );

  const reset = () => {
    setCreated(null);
    form.setValues({ patient: null, tests: [], attestations: NO_ATTESTATIONS, collectedAt: '', diagnoses: [] });
    form.clearErrors();
    sending.reset();
    if (params.has('patientId')) setParams({}, { replace: true });
  };

  if (created) return <OrderConfirmation accountId={account.id} created={created} onAnother={reset} />;
  const errors = form.errors;

  return (
    // Not a <form>: the new-patient form sits inside it, and forms do not nest.
    <Stack gap="lg" role="group" aria-label="Order a test">
      {noPhysician && (
        <Notice color="orange" title="No physician to order for">
          {NO_PHYSICIAN_NOTICE}
        </Notice>
      )}
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
                  Born {formatCalendarDate(patient.dateOfBirth)}
                  {patient.sex ? ` · ${PATIENT_SEX_LABELS[patient.sex as PatientSex] ?? patient.sex}` : ''}
                </Text>
              </div>
              <Button variant="default" size="xs" onClick={() => change('patient', null)}>
                Change patient
              </Button>
            </Group>
          ) : (
            <PatientPicker accountId={account.id} onPick={(p) => change('patient', p)} />
          )}
          {errors.patient && <Text c="red.9" fz="sm" role="alert">{errors.patient}</Text>}
        </Stack>
      </Card>

      <Card withBorder padding="lg" component="section" aria-labelledby="order-test">
        <Stack gap="md">
          <Title order={2} fz="lg" id="order-test">
            2. Test and sample
          </Title>
          <Checkbox.Group label="Test" description="Tests the Clinical Portal may order" value={tests} onChange={(v) => change('tests', v as TestName[])} error={errors.tests} withAsterisk>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="xs">
              {(catalogue.data ?? []).map((t) => (
                <Checkbox key={t.name} value={t.name} label={t.name} description={t.research ? 'Research use only' : undefined} />
              ))}
            </SimpleGrid>
          </Checkbox.Group>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <Select
              label="Ordering physician"
              placeholder={physicians.isLoading ? 'Loading…' : noPhysician ? 'No physician linked to you' : 'Choose'}
              data={physicianOptions}
              value={physicianId}
              onChange={(v) => change('physicianId', v)}
              error={errors.physicianId}
              withAsterisk
              disabled={noPhysician}
              searchable
              // Choosing the pre-selected physician again keeps them (a required field has nothing to deselect to).
              allowDeselect={false}
              nothingFoundMessage="No physician you may order for matches"
            />
            <Select label="Sample type" data={SAMPLE_TYPES} value={sampleType} onChange={(v) => change('sampleType', v)} error={errors.sampleType} withAsterisk allowDeselect={false} />
            <TextInput
              type="datetime-local"
              label="Collected at"
              description="If the clinic has collected the sample already: when. Leave empty otherwise; the lab asks for it when the kit arrives."
              value={collectedAt}
              max={nowLocalInput()}
              onChange={(e) => change('collectedAt', e.currentTarget.value)}
              error={errors.collectedAt}
            />
          </SimpleGrid>
        </Stack>
      </Card>

      <Card withBorder padding="lg" component="section" aria-labelledby="order-diagnosis">
        <Stack gap="sm">
          <Title order={2} fz="lg" id="order-diagnosis">
            3. Diagnosis
          </Title>
          <DiagnosisPicker accountId={account.id} value={diagnoses} onChange={(next) => change('diagnoses', next)} required={diagnosisRequiredFor(tests)} error={errors.diagnoses} />
        </Stack>
      </Card>

      <Card withBorder padding="lg" component="section" aria-labelledby="order-attestations">
        <Stack gap="sm">
          <Title order={2} fz="lg" id="order-attestations">
            4. Attestations
          </Title>
          <Text fz="sm" c="dimmed">
            The order can be placed once all four are confirmed.
          </Text>
          <AttestationChecklist value={attestations} onChange={(next) => change('attestations', next)} error={errors.attestations} />
        </Stack>
      </Card>

      <FormError title="The order was not placed" error={isFormsToShow(sending.error) ? sending.error : undefined} />
      <Group justify="flex-end">
        <Button size="md" loading={sending.submitting} onClick={sending.submit} disabled={noPhysician}>
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
  // The form that was used is gone: the focus goes to what replaced it (keyboard and screen reader users).
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="order-placed">
      <Stack gap="md">
        <Title order={2} fz="xl" id="order-placed" ref={heading} tabIndex={-1}>
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
            {fullName(patient)} (born {formatCalendarDate(patient.dateOfBirth)})
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
