/**
 * The clinic's corrections on the patient page (docs/clinical-orders.md): correcting the patient's
 * details (a form drawn from the patient schema: every field a new patient has, so a field the
 * record gains appears here too), the corrections history (each changed field's old and new
 * value), and per sample its diagnosis codes and, until the lab receives the sample, cancelling
 * its order.
 */
import { useState } from 'react';
import { Badge, Button, Card, Group, Modal, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  CANCEL_REASON_MAX_LENGTH, PATIENT_SEX_LABELS, REASON_MAX_LENGTH,
} from '@platform/domain';
import { formatDateTime } from '../../format';
import { useRefreshClinic, type PatientDetail, type PatientSample } from '../../api/clinic';
import {
  cancelClinicOrder, correctPatient, useCorrectableFields, type CorrectableFieldSpec, type PatientCorrectionInput, type PatientCorrectionView,
} from '../../api/clinical-orders';
import { PageLoader } from '../../components/PageLoader';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';

const optionLabel = (key: string, value: string) => (key === 'sex' ? (PATIENT_SEX_LABELS as Record<string, string>)[value] ?? value : value);
const isFormsToShow = (error: unknown) => error instanceof ApiError && (error.status === 400 || error.status === 409);

/** The patient's details as the form starts: each field's current value as text ('' when not given). */
function currentValues(fields: CorrectableFieldSpec[], patient: PatientDetail['patient']): PatientCorrectionInput {
  const values = Object.fromEntries(fields.map((f) => [f.key, String((patient as Record<string, unknown>)[f.key] ?? '')]));
  return { ...values, reason: '' } as PatientCorrectionInput;
}

export function CorrectPatientButton({ accountId, patient }: { accountId: number; patient: PatientDetail['patient'] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Correct details
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title="Correct the patient’s details" size="lg" centered closeButtonProps={{ 'aria-label': 'Close' }}>
        {open && <CorrectionFields accountId={accountId} patient={patient} onDone={() => setOpen(false)} />}
      </Modal>
    </>
  );
}

/** The form once its fields are known. */
function CorrectionFields({ accountId, patient, onDone }: { accountId: number; patient: PatientDetail['patient']; onDone: () => void }) {
  const { data } = useCorrectableFields(accountId);
  return data ? <CorrectionForm accountId={accountId} patient={patient} fields={data} onDone={onDone} /> : <PageLoader label="Loading the form" />;
}

function CorrectionForm({ accountId, patient, fields, onDone }: { accountId: number; patient: PatientDetail['patient']; fields: CorrectableFieldSpec[]; onDone: () => void }) {
  const refresh = useRefreshClinic(accountId);
  const form = useForm<PatientCorrectionInput>({
    initialValues: currentValues(fields, patient),
    validate: {
      reason: (value) => (value.trim() ? null : 'Say why the details are corrected'),
      ...Object.fromEntries(fields.filter((f) => f.required).map((f) => [f.key, (value: string) => (value.trim() ? null : `${f.label} is required`)])),
    },
  });
  const sending = useFormSubmit(form, (values) => correctPatient(accountId, patient.id, values), {
    onSuccess: (correction) => {
      showSuccessToast(`Corrected: ${correction.changes.map((c) => c.label).join(', ')}`);
      void refresh();
      onDone();
    },
    onError: (error) => {
      if (!isFormsToShow(error)) reportError(error, 'Error submitting form');
    },
  });
  return (
    <form onSubmit={sending.onSubmit} noValidate>
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          The earlier values are kept in the patient’s corrections history. Results already released keep the details they were issued with.
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {fields.map((f) =>
            f.options ? (
              <Select
                key={f.key}
                label={f.label}
                data={f.options.map((o) => ({ value: o, label: optionLabel(f.key, o) }))}
                withAsterisk={f.required}
                allowDeselect={!f.required}
                {...form.getInputProps(f.key)}
              />
            ) : (
              <TextInput key={f.key} label={f.label} type={f.date ? 'date' : 'text'} withAsterisk={f.required} {...form.getInputProps(f.key)} />
            ),
          )}
        </SimpleGrid>
        <Textarea label="Reason for the correction" withAsterisk autosize minRows={2} maxLength={REASON_MAX_LENGTH} {...form.getInputProps('reason')} />
        <FormError title="The details were not corrected" error={isFormsToShow(sending.error) ? sending.error : undefined} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>Cancel</Button>
          <Button type="submit" loading={sending.submitting}>Save the correction</Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Every correction, newest first: who, when, why, and each field's old and new value. */
export function CorrectionsHistory({ corrections }: { corrections: PatientCorrectionView[] }) {
  if (!corrections.length) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="corrections-history">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="corrections-history">Corrections history</Title>
        {corrections.map((c) => (
          <Stack key={c.id} gap={4}>
            <Text fz="sm" fw={600}>{formatDateTime(c.at)} by {c.by}: {c.reason}</Text>
            {c.changes.map((ch) => (
              <Text key={ch.field} fz="sm">
                {ch.label}: <Text span td="line-through" c="dimmed">{ch.before ?? '(empty)'}</Text> → {ch.after ?? '(empty)'}
              </Text>
            ))}
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}

/** A sample's order as the clinic placed it: its diagnosis codes, whether it was cancelled, and the cancel while it may be. */
export function SampleOrderDetails({ accountId, sample }: { accountId: number; sample: PatientSample }) {
  return (
    <Stack gap={6}>
      {sample.diagnoses.length > 0 && (
        <Stack gap={4} aria-label={`Diagnosis codes of sample ${sample.barcode}`} role="group">
          <Text fz="xs" c="dimmed">Diagnosis (ICD-10-CM)</Text>
          {sample.diagnoses.map((d) => (
            <Group key={d.code} gap="xs" wrap="nowrap">
              <Badge variant="light" radius="sm">{d.display}</Badge>
              <Text fz="sm">{d.description}</Text>
            </Group>
          ))}
        </Stack>
      )}
      {sample.cancelledAt && (
        <Text fz="sm" c="red.9">Order cancelled on {formatDateTime(sample.cancelledAt)}: {sample.cancellationReason}</Text>
      )}
      {sample.cancellable && <CancelOrderButton accountId={accountId} sample={sample} />}
    </Stack>
  );
}

function CancelOrderButton({ accountId, sample }: { accountId: number; sample: PatientSample }) {
  const [open, setOpen] = useState(false);
  const refresh = useRefreshClinic(accountId);
  const form = useForm<{ reason: string }>({
    initialValues: { reason: '' },
    validate: { reason: (value) => (value.trim() ? null : 'Say why the order is cancelled') },
  });
  const sending = useFormSubmit(form, (values) => cancelClinicOrder(accountId, sample.id, values.reason), {
    onSuccess: (cancelled) => {
      showSuccessToast(`Order ${cancelled.orderNumber} cancelled`);
      setOpen(false);
      void refresh();
    },
    onError: (error) => {
      if (!isFormsToShow(error)) reportError(error, 'Error submitting form');
    },
  });
  return (
    <>
      <Group>
        <Button variant="light" color="red" size="xs" onClick={() => setOpen(true)}>
          Cancel order {sample.orderNumber}
        </Button>
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Cancel order ${sample.orderNumber}?`} centered closeButtonProps={{ 'aria-label': 'Close' }}>
        <form onSubmit={sending.onSubmit} noValidate>
          <Stack gap="sm">
            <Text fz="sm">
              Kit {sample.barcode} will be void: if it still reaches the lab, it is not tested. This cannot be undone.
            </Text>
            <Textarea label="Reason" withAsterisk autosize minRows={2} maxLength={CANCEL_REASON_MAX_LENGTH} {...form.getInputProps('reason')} />
            <FormError title="The order was not cancelled" error={isFormsToShow(sending.error) ? sending.error : undefined} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>Keep the order</Button>
              <Button type="submit" color="red" loading={sending.submitting}>Cancel the order</Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
