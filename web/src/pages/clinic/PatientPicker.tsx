/**
 * Step one of an order: find the patient (search as you type: a name, part of one, or a date of
 * birth) or add a new one. Adding checks, as the details are typed, whether the patient exists.
 */
import { useState } from 'react';
import {
  Alert, Anchor, Button, Collapse, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput, UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { formatCalendarDate, isDataDate, listName, PATIENT_SEX_LABELS, PATIENT_SEXES, type PatientSex, todayDataDate } from '@platform/domain';
import { createPatient, PATIENT_SEARCH_MIN_LENGTH, usePatientExists, usePatientSearch, type NewPatientInput, type PatientSummary } from '../../api/clinic';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';

export function PatientPicker({ accountId, onPick }: { accountId: number; onPick: (patient: PatientSummary) => void }) {
  const [q, setQ] = useState('');
  const [adding, setAdding] = useState(false);
  const [debounced] = useDebouncedValue(q, 250);
  const { data, isLoading } = usePatientSearch(accountId, debounced);
  const searching = debounced.trim().length >= PATIENT_SEARCH_MIN_LENGTH;
  const results = searching ? (data?.rows ?? []) : [];

  if (adding) {
    return <NewPatientForm accountId={accountId} initialName={q} onCancel={() => setAdding(false)} onDone={onPick} />;
  }
  return (
    <Stack gap="sm">
      <TextInput
        label="Find the patient"
        description="Type a name, part of a name, or a date of birth (MM/DD/YYYY or YYYY-MM-DD)"
        placeholder="e.g. Carter, or 03/14/1956"
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        rightSection={isLoading ? <Loader size={16} /> : null}
        autoComplete="off"
        size="md"
        data-autofocus
      />
      {searching && (
        <Stack gap={6} role="list" aria-label="Matching patients">
          {results.map((p) => (
            <UnstyledButton key={p.id} role="listitem" onClick={() => onPick(p)} aria-label={`Choose ${p.firstName} ${p.lastName}, born ${formatCalendarDate(p.dateOfBirth)}`}>
              <Paper withBorder p="sm" radius="md" style={{ cursor: 'pointer' }}>
                <Group justify="space-between" gap="xs">
                  <Text fw={600}>{listName(p)}</Text>
                  <Text fz="sm" c="dimmed">
                    Born {formatCalendarDate(p.dateOfBirth)}
                    {p.sex ? ` · ${PATIENT_SEX_LABELS[p.sex as PatientSex] ?? p.sex}` : ''}
                  </Text>
                </Group>
              </Paper>
            </UnstyledButton>
          ))}
          {!isLoading && data && results.length === 0 && <Text c="dimmed" fz="sm">No patient of this account matches “{debounced.trim()}”.</Text>}
          {data && data.total > results.length && (
            <Text c="dimmed" fz="sm">
              Showing {results.length} of {data.total}: type more to narrow the search.
            </Text>
          )}
        </Stack>
      )}
      <Group>
        <Button variant="light" onClick={() => setAdding(true)}>
          New patient
        </Button>
      </Group>
    </Stack>
  );
}

interface Draft {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: PatientSex | '';
  email: string;
  phone: string;
  medicalRecordNumber: string;
  addressLine1: string;
  addressLine2: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

const EMPTY: Draft = {
  firstName: '', lastName: '', dateOfBirth: '', sex: '', email: '', phone: '', medicalRecordNumber: '',
  addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '', country: '',
};

function splitName(text: string): Pick<Draft, 'firstName' | 'lastName'> {
  const t = text.trim();
  if (!t || /\d/.test(t)) return { firstName: '', lastName: '' };
  if (t.includes(',')) {
    const [last, first = ''] = t.split(',').map((s) => s.trim());
    return { firstName: first, lastName: last };
  }
  const words = t.split(/\s+/);
  return words.length === 1 ? { firstName: '', lastName: words[0] } : { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1] };
}

function NewPatientForm({ accountId, initialName, onCancel, onDone }: {
  accountId: number;
  initialName: string;
  onCancel: () => void;
  onDone: (patient: PatientSummary) => void;
}) {
  const [showAddress, setShowAddress] = useState(false);
  const form = useForm<Draft>({
    initialValues: { ...EMPTY, ...splitName(initialName) },
    validate: {
      firstName: (value) => (value.trim() ? null : 'First name is required'),
      lastName: (value) => (value.trim() ? null : 'Last name is required'),
      dateOfBirth: (value) => (!isDataDate(value) ? 'Date of birth is required' : value > todayDataDate() ? 'Date of birth must not be in the future' : null),
      sex: (value) => (value ? null : 'Sex is required'),
    },
  });
  const draft = form.getValues();
  const sending = useFormSubmit(form, (values) => createPatient(accountId, { ...values, sex: values.sex as PatientSex } satisfies NewPatientInput), {
    onSuccess: onDone,
    onError: (error, placed) => {
      if (placed || (error instanceof ApiError && (error.status === 400 || error.status === 409))) return;
      reportError(error, 'Failed to add patient');
    },
  });

  // As soon as name and date of birth are there: does the patient exist already?
  const [who] = useDebouncedValue({ firstName: draft.firstName.trim(), lastName: draft.lastName.trim(), dateOfBirth: draft.dateOfBirth }, 400);
  const askable = who.firstName !== '' && who.lastName !== '' && isDataDate(who.dateOfBirth) && who.dateOfBirth <= todayDataDate();
  const exists = usePatientExists(accountId, askable ? who : null);
  const current = askable && who.firstName === draft.firstName.trim() && who.lastName === draft.lastName.trim() && who.dateOfBirth === draft.dateOfBirth;
  const existing = current && exists.data?.exists && exists.data.patientId ? exists.data.patientId : null;
  const checking = askable && exists.isLoading;

  const useExisting = () => {
    if (existing === null) return;
    onDone({ id: existing, firstName: draft.firstName.trim(), lastName: draft.lastName.trim(), dateOfBirth: draft.dateOfBirth, sex: draft.sex || null, email: null, phone: null });
  };
  const field = (name: keyof Draft) => form.getInputProps(name);
  const formError = sending.error instanceof ApiError && (sending.error.status === 400 || sending.error.status === 409) ? sending.error : undefined;

  return (
    <Stack gap="sm" component="form" onSubmit={sending.onSubmit} aria-label="New patient">
      <Text fw={600}>New patient</Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput label="First name" required {...field('firstName')} autoComplete="off" />
        <TextInput label="Last name" required {...field('lastName')} autoComplete="off" />
        <TextInput
          label="Date of birth"
          required
          type="date"
          max={todayDataDate()}
          min="1900-01-01"
          {...field('dateOfBirth')}
          rightSection={checking ? <Loader size={14} /> : null}
        />
        <Stack gap={4}>
          <Text fz="sm" fw={500} id="new-patient-sex">
            Sex <span aria-hidden="true" style={{ color: 'var(--mantine-color-error)' }}>*</span>
          </Text>
          <SegmentedControl
            aria-labelledby="new-patient-sex"
            value={draft.sex}
            onChange={(value) => form.setFieldValue('sex', value as PatientSex)}
            data={PATIENT_SEXES.map((s) => ({ value: s, label: PATIENT_SEX_LABELS[s] }))}
            fullWidth
          />
          {form.errors.sex && (
            <Text fz="xs" c="red.9">
              {form.errors.sex}
            </Text>
          )}
        </Stack>
      </SimpleGrid>

      {existing !== null && (
        <Alert color="yellow" variant="light" title="This patient already exists">
          <Stack gap="xs">
            <Text fz="sm">A patient with this name and date of birth is already in this account.</Text>
            <Group>
              <Button size="xs" onClick={useExisting}>
                Use the existing patient
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}

      <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
        <TextInput label="Email" type="email" {...field('email')} autoComplete="off" />
        <TextInput label="Phone" type="tel" {...field('phone')} autoComplete="off" />
        <TextInput label="Medical record number" {...field('medicalRecordNumber')} autoComplete="off" />
      </SimpleGrid>
      <Anchor component="button" type="button" fz="sm" onClick={() => setShowAddress((v) => !v)} aria-expanded={showAddress} style={{ alignSelf: 'flex-start' }}>
        {showAddress ? 'Hide the address' : 'Add an address (optional)'}
      </Anchor>
      <Collapse expanded={showAddress}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="Address line 1" {...field('addressLine1')} />
          <TextInput label="Address line 2" {...field('addressLine2')} />
          <TextInput label="City" {...field('city')} />
          <TextInput label="State" {...field('state')} />
          <TextInput label="Postal code" {...field('postalCode')} />
          <TextInput label="Country" {...field('country')} />
        </SimpleGrid>
      </Collapse>
      <FormError error={formError} />
      <Group>
        <Button type="submit" loading={sending.submitting} disabled={existing !== null}>
          Add patient
        </Button>
        <Button variant="subtle" onClick={onCancel}>
          Back to search
        </Button>
      </Group>
    </Stack>
  );
}
