/**
 * Step one of an order: find the patient (search as you type: a name, part of one, or a date of
 * birth) or add a new one. Adding checks, as the details are typed, whether the patient exists.
 */
import { useEffect, useState } from 'react';
import {
  Alert, Anchor, Button, Collapse, Group, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput, UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { isDataDate, PATIENT_SEXES, PATIENT_SEX_LABELS, todayDataDate, type PatientSex } from '@platform/domain';
import { checkPatientExists, createPatient, PATIENT_SEARCH_MIN_LENGTH, usePatientSearch, type NewPatientInput, type PatientSummary } from '../../api/clinic';
import { ApiError } from '../../api/fetcher';
import { reportError } from '../../shell/report-error';
import { formatDataDate, listName } from './format';

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
            <UnstyledButton key={p.id} role="listitem" onClick={() => onPick(p)} aria-label={`Choose ${p.firstName} ${p.lastName}, born ${formatDataDate(p.dateOfBirth)}`}>
              <Paper withBorder p="sm" radius="md" style={{ cursor: 'pointer' }}>
                <Group justify="space-between" gap="xs">
                  <Text fw={600}>{listName(p)}</Text>
                  <Text fz="sm" c="dimmed">
                    Born {formatDataDate(p.dateOfBirth)}
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
  const [draft, setDraft] = useState<Draft>({ ...EMPTY, ...splitName(initialName) });
  const [errors, setErrors] = useState<Partial<Record<keyof Draft | 'form', string>>>({});
  const [saving, setSaving] = useState(false);
  const [showAddress, setShowAddress] = useState(false);
  const [existing, setExisting] = useState<number | null>(null);
  const [checking, setChecking] = useState(false);
  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));

  // As soon as name and date of birth are there: does the patient exist already?
  const [who] = useDebouncedValue({ firstName: draft.firstName.trim(), lastName: draft.lastName.trim(), dateOfBirth: draft.dateOfBirth }, 400);
  useEffect(() => {
    setExisting(null);
    if (!who.firstName || !who.lastName || !isDataDate(who.dateOfBirth) || who.dateOfBirth > todayDataDate()) return;
    let live = true;
    setChecking(true);
    checkPatientExists(accountId, who)
      .then((answer) => {
        if (live) setExisting(answer.exists && answer.patientId ? answer.patientId : null);
      })
      .catch((error: unknown) => {
        // A name the server refuses is shown when the form is sent; anything else is a failed check.
        if (live && !(error instanceof ApiError && error.status === 400)) reportError(error, 'Error checking if patient exists');
      })
      .finally(() => {
        if (live) setChecking(false);
      });
    return () => {
      live = false;
    };
  }, [accountId, who.firstName, who.lastName, who.dateOfBirth]);

  const useExisting = () => {
    if (existing === null) return;
    onDone({ id: existing, firstName: draft.firstName.trim(), lastName: draft.lastName.trim(), dateOfBirth: draft.dateOfBirth, sex: draft.sex || null, email: null, phone: null });
  };

  const submit = async () => {
    const problems: typeof errors = {};
    if (!draft.firstName.trim()) problems.firstName = 'First name is required';
    if (!draft.lastName.trim()) problems.lastName = 'Last name is required';
    if (!isDataDate(draft.dateOfBirth)) problems.dateOfBirth = 'Date of birth is required';
    else if (draft.dateOfBirth > todayDataDate()) problems.dateOfBirth = 'Date of birth must not be in the future';
    if (!draft.sex) problems.sex = 'Sex is required';
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setSaving(true);
    try {
      const body: NewPatientInput = { ...draft, sex: draft.sex as PatientSex };
      onDone(await createPatient(accountId, body));
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.fields.length) {
        setErrors(Object.fromEntries(error.fields.map((f) => [f.field || 'form', f.message])));
      } else if (error instanceof ApiError && error.status === 409) {
        setErrors({ form: error.serverMessage });
      } else {
        reportError(error, 'Failed to add patient');
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack gap="sm" component="form" onSubmit={(e) => { e.preventDefault(); void submit(); }} aria-label="New patient">
      <Text fw={600}>New patient</Text>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput label="First name" required value={draft.firstName} onChange={(e) => set('firstName')(e.currentTarget.value)} error={errors.firstName} autoComplete="off" />
        <TextInput label="Last name" required value={draft.lastName} onChange={(e) => set('lastName')(e.currentTarget.value)} error={errors.lastName} autoComplete="off" />
        <TextInput
          label="Date of birth"
          required
          type="date"
          max={todayDataDate()}
          min="1900-01-01"
          value={draft.dateOfBirth}
          onChange={(e) => set('dateOfBirth')(e.currentTarget.value)}
          error={errors.dateOfBirth}
          rightSection={checking ? <Loader size={14} /> : null}
        />
        <Stack gap={4}>
          <Text fz="sm" fw={500} id="new-patient-sex">
            Sex <span aria-hidden="true" style={{ color: 'var(--mantine-color-error)' }}>*</span>
          </Text>
          <SegmentedControl
            aria-labelledby="new-patient-sex"
            value={draft.sex}
            onChange={set('sex')}
            data={PATIENT_SEXES.map((s) => ({ value: s, label: PATIENT_SEX_LABELS[s] }))}
            fullWidth
          />
          {errors.sex && (
            <Text fz="xs" c="red.9">
              {errors.sex}
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
        <TextInput label="Email" type="email" value={draft.email} onChange={(e) => set('email')(e.currentTarget.value)} error={errors.email} autoComplete="off" />
        <TextInput label="Phone" type="tel" value={draft.phone} onChange={(e) => set('phone')(e.currentTarget.value)} error={errors.phone} autoComplete="off" />
        <TextInput label="Medical record number" value={draft.medicalRecordNumber} onChange={(e) => set('medicalRecordNumber')(e.currentTarget.value)} error={errors.medicalRecordNumber} autoComplete="off" />
      </SimpleGrid>
      <Anchor component="button" type="button" fz="sm" onClick={() => setShowAddress((v) => !v)} aria-expanded={showAddress} style={{ alignSelf: 'flex-start' }}>
        {showAddress ? 'Hide the address' : 'Add an address (optional)'}
      </Anchor>
      <Collapse expanded={showAddress}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label="Address line 1" value={draft.addressLine1} onChange={(e) => set('addressLine1')(e.currentTarget.value)} error={errors.addressLine1} />
          <TextInput label="Address line 2" value={draft.addressLine2} onChange={(e) => set('addressLine2')(e.currentTarget.value)} error={errors.addressLine2} />
          <TextInput label="City" value={draft.city} onChange={(e) => set('city')(e.currentTarget.value)} error={errors.city} />
          <TextInput label="State" value={draft.state} onChange={(e) => set('state')(e.currentTarget.value)} error={errors.state} />
          <TextInput label="Postal code" value={draft.postalCode} onChange={(e) => set('postalCode')(e.currentTarget.value)} error={errors.postalCode} />
          <TextInput label="Country" value={draft.country} onChange={(e) => set('country')(e.currentTarget.value)} error={errors.country} />
        </SimpleGrid>
      </Collapse>
      {errors.form && (
        <Alert color="red" variant="light" role="alert">
          {errors.form}
        </Alert>
      )}
      <Group>
        <Button type="submit" loading={saving} disabled={existing !== null}>
          Add patient
        </Button>
        <Button variant="subtle" onClick={onCancel}>
          Back to search
        </Button>
      </Group>
    </Stack>
  );
}
