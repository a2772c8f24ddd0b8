import { useState } from 'react';
import {
  Badge, Button, CloseButton, Fieldset, Group, Loader, NumberInput, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Textarea, TextInput, Title, UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import {
  DEFAULT_PAGE_SIZE, FINANCIAL_AID_DEFAULT_PRICE_CENTS, formatCalendarDate, isDataDate, PERSON_NAME_MAX_LENGTH, REASON_MAX_LENGTH, todayDataDate, type CreatedFinancialAid,
} from '@platform/domain';
import {
  ADMIN_PATIENT_SEARCH_MIN_LENGTH, createFinancialAid, useAdminPatientSearch, useFinancialAid, useRefreshAdmin, type AdminPatientOption,
} from '../../api/admin';
import { Notice } from '../../components/Notice';
import { Pager } from '../../components/Pager';
import { formatCents, formatDate } from '../../format';
import { nestedFieldOf } from '../../forms/server-errors';
import { useFormSubmit } from '../../forms/use-form-submit';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';
import { AdminPageFrame } from './AdminPageFrame';
import { onCommandError } from './errors';
import { FormFooter } from './FormFooter';
import { QueryState, queryFlags } from './QueryState';
import { RecordTable } from '../../components/RecordTable';

const MAX_PRICE_USD = 10_000;

/** /admin/provider/financial-aid: patients approved for the financial assistance program, at which price and until when. */
export function FinancialAidPage() {
  const [patientFilter, setPatientFilter] = useState<{ id: number; name: string } | null>(null);
  const [granted, setGranted] = useState<CreatedFinancialAid | null>(null);
  return (
    <AdminPageFrame title="Financial aid" subtitle="Patients approved for the financial assistance program: the price they pay and until when.">
      {granted && <AssistanceCode granted={granted} onClose={() => setGranted(null)} />}
      <NewRecord
        onSaved={(row) => {
          setGranted(row);
          setPatientFilter({ id: row.patientId, name: row.patientName });
        }}
      />
      <Records patientFilter={patientFilter} onPatientFilter={setPatientFilter} />
    </AdminPageFrame>
  );
}

/**
 * The grant's assistance code, shown this once (only its hash is kept): the patient enters it at
 * payment. Emailed to them when an email is on file; otherwise the admin gives it to them.
 */
function AssistanceCode({ granted, onClose }: { granted: CreatedFinancialAid; onClose: () => void }) {
  return (
    <div role="status">
      <Notice color={granted.codeEmailedTo ? 'green' : 'orange'} title={`Assistance code for ${granted.patientName}: ${granted.assistanceCode}`} onClose={onClose}>
        {granted.codeEmailedTo
          ? `Emailed to ${granted.codeEmailedTo}. The patient enters it when they choose financial assistance at payment. It is not shown again.`
          : 'This patient has no email on file: give them this code yourself (by phone or letter). They enter it when they choose financial assistance at payment. It is not shown again.'}
      </Notice>
    </div>
  );
}

type Mode = 'existing' | 'new';

interface AidValues {
  mode: Mode;
  patientId: number | null;
  patientLabel: string;
  patient: { firstName: string; lastName: string; dateOfBirth: string; email: string };
  priceUsd: number | string;
  validUntil: string;
  note: string;
}

const EMPTY: AidValues = {
  mode: 'existing',
  patientId: null,
  patientLabel: '',
  patient: { firstName: '', lastName: '', dateOfBirth: '', email: '' },
  priceUsd: FINANCIAL_AID_DEFAULT_PRICE_CENTS / 100,
  validUntil: '',
  note: '',
};

const today = () => todayDataDate();
const whenNew = (check: (v: string) => string | null) => (v: string, values: AidValues) => (values.mode === 'new' ? check(v) : null);

function NewRecord({ onSaved }: { onSaved: (row: CreatedFinancialAid) => void }) {
  const refresh = useRefreshAdmin();
  const form = useForm<AidValues>({
    initialValues: EMPTY,
    validate: {
      patientId: (v, values) => (values.mode === 'existing' && v === null ? 'Choose a patient' : null),
      patient: {
        firstName: whenNew((v) => (v.trim() ? null : 'Enter the first name')),
        lastName: whenNew((v) => (v.trim() ? null : 'Enter the last name')),
        dateOfBirth: whenNew((v) => (isDataDate(v.trim()) ? (v.trim() <= today() ? null : 'The date of birth cannot be in the future') : 'Write the date of birth as YYYY-MM-DD')),
        email: whenNew((v) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? null : 'Enter a valid email address')),
      },
      priceUsd: (v) => (typeof v === 'number' && v >= 0 && v <= MAX_PRICE_USD ? null : `Enter a price between $0 and $${MAX_PRICE_USD}`),
      validUntil: (v) => (!isDataDate(v.trim()) ? 'Write the end date as YYYY-MM-DD' : v.trim() < today() ? 'The end date has passed' : null),
    },
  });
  const values = form.getValues();
  const sending = useFormSubmit(
    form,
    (v) =>
      createFinancialAid({
        ...(v.mode === 'existing'
          ? { patientId: v.patientId! }
          : { patient: { firstName: v.patient.firstName.trim(), lastName: v.patient.lastName.trim(), dateOfBirth: v.patient.dateOfBirth.trim(), email: v.patient.email.trim() } }),
        approvedPriceCents: Math.round(Number(v.priceUsd) * 100),
        validUntil: v.validUntil.trim(),
        note: v.note.trim() || null,
      }),
    {
      fieldOf: nestedFieldOf(() => form.getValues(), { approvedPriceCents: 'priceUsd' }),
      onSuccess: (row) => {
        showSuccessToast(`Financial aid saved for ${row.patientName}`);
        form.setValues(EMPTY);
        form.resetDirty(EMPTY);
        onSaved(row);
        void refresh();
      },
      onError: onCommandError,
    },
  );

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="new-aid">
      <form onSubmit={sending.onSubmit} noValidate>
        <Fieldset variant="unstyled" disabled={sending.submitting}>
          <Stack gap="md">
            <Title order={2} fz="lg" id="new-aid">
              Approve financial aid
            </Title>
            <SegmentedControl
              aria-label="Patient"
              value={values.mode}
              onChange={(v) => {
                form.setFieldValue('mode', v as Mode);
                form.clearErrors();
              }}
              data={[
                { value: 'existing', label: 'Existing patient' },
                { value: 'new', label: 'New patient' },
              ]}
              w="fit-content"
            />
            {values.mode === 'existing' ? (
              values.patientId !== null ? (
                <Group gap="sm">
                  <Text>
                    Patient: <b>{values.patientLabel}</b>
                  </Text>
                  <Button variant="subtle" size="xs" onClick={() => form.setValues({ patientId: null, patientLabel: '' })}>
                    Change patient
                  </Button>
                </Group>
              ) : (
                <PatientSearch
                  error={form.errors.patientId}
                  onPick={(p) => {
                    form.setValues({ patientId: p.id, patientLabel: `${p.name}, born ${formatCalendarDate(p.dateOfBirth)}` });
                    form.clearFieldError('patientId');
                  }}
                />
              )
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="First name" required maxLength={PERSON_NAME_MAX_LENGTH} autoComplete="off" {...form.getInputProps('patient.firstName')} />
                <TextInput label="Last name" required maxLength={PERSON_NAME_MAX_LENGTH} autoComplete="off" {...form.getInputProps('patient.lastName')} />
                <TextInput label="Date of birth" description="YYYY-MM-DD" placeholder="1958-04-21" required autoComplete="off" {...form.getInputProps('patient.dateOfBirth')} />
                <TextInput label="Email" type="email" required autoComplete="off" {...form.getInputProps('patient.email')} />
              </SimpleGrid>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NumberInput
                label="Approved price (USD)"
                description={`What the patient pays per test; the program's reduced price is ${formatCents(FINANCIAL_AID_DEFAULT_PRICE_CENTS)}`}
                required
                min={0}
                max={MAX_PRICE_USD}
                decimalScale={2}
                prefix="$"
                thousandSeparator=","
                {...form.getInputProps('priceUsd')}
              />
              <TextInput label="Valid until" description="YYYY-MM-DD, the last day the price applies" placeholder={today()} required autoComplete="off" {...form.getInputProps('validUntil')} />
            </SimpleGrid>
            <Textarea label="Note" autosize minRows={2} maxLength={REASON_MAX_LENGTH} {...form.getInputProps('note')} />
            <FormFooter sending={sending} errorTitle="The record was not saved" submitLabel="Save record" />
          </Stack>
        </Fieldset>
      </form>
    </Paper>
  );
}

function PatientSearch({ onPick, error, label = 'Find a patient' }: { onPick: (p: AdminPatientOption) => void; error?: React.ReactNode; label?: string }) {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 250);
  const { data, isLoading } = useAdminPatientSearch(debounced);
  const searching = debounced.trim().length >= ADMIN_PATIENT_SEARCH_MIN_LENGTH;
  const results = searching ? (data ?? []) : [];
  return (
    <Stack gap="xs">
      <TextInput
        label={label}
        description="A name, part of one, or an email"
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
        rightSection={isLoading ? <Loader size={16} /> : null}
        error={error}
        autoComplete="off"
      />
      {searching && (
        <Stack gap={6} role="list" aria-label="Matching patients">
          {results.map((p) => (
            <UnstyledButton key={p.id} role="listitem" onClick={() => onPick(p)} aria-label={`Choose ${p.name}, born ${formatCalendarDate(p.dateOfBirth)}`}>
              <Paper withBorder p="sm" radius="md">
                <Group justify="space-between" gap="xs">
                  <Text fw={600}>{p.name}</Text>
                  <Text fz="sm" c="dimmed">
                    Born {formatCalendarDate(p.dateOfBirth)}
                    {p.email ? ` · ${p.email}` : ''}
                    {p.accountName ? ` · ${p.accountName}` : ''}
                  </Text>
                </Group>
              </Paper>
            </UnstyledButton>
          ))}
          {!isLoading && data && results.length === 0 && <Text c="dimmed" fz="sm">No patient matches “{debounced.trim()}”. Enter them as a new patient instead.</Text>}
        </Stack>
      )}
    </Stack>
  );
}

function Records({ patientFilter, onPatientFilter }: { patientFilter: { id: number; name: string } | null; onPatientFilter: (p: { id: number; name: string } | null) => void }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  // One patient's records are found through the patient search (a POST): names stay out of URLs.
  const records = useFinancialAid({ patientId: patientFilter?.id ?? null, page, pageSize });
  const rows = records.data?.rows ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="aid-records">
      <Title order={2} fz="lg" id="aid-records">
        Records
      </Title>
      <Group gap="sm" align="flex-end" wrap="wrap">
        {!patientFilter && (
          <PatientSearch label="Show one patient's records" onPick={(p) => { onPatientFilter({ id: p.id, name: p.name }); setPage(1); }} />
        )}
        {patientFilter && (
          <Badge size="lg" variant="light" rightSection={<CloseButton size="xs" aria-label="Show every patient" onClick={() => { onPatientFilter(null); setPage(1); }} />}>
            Records of {patientFilter.name}
          </Badge>
        )}
      </Group>
      <QueryState
        what="financial aid records"
        {...queryFlags(records, (d) => d.rows.length === 0)}
        emptyText={patientFilter ? 'No record for this patient.' : 'No financial aid records yet.'}
        onRetry={() => void records.mutate()}
      >
        <RecordTable minWidth={900} label="Financial aid records" columns={['Patient', 'Date of birth', 'Status', 'Price', 'Valid until', 'Note', 'Approved']}>
          {rows.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>
                <UnstyledButton
                  onClick={() => { onPatientFilter({ id: r.patientId, name: r.patientName }); setPage(1); }}
                  aria-label={`Show the records of ${r.patientName}`}
                  td="underline"
                  fz="sm"
                  fw={600}
                >
                  {r.patientName}
                </UnstyledButton>
                {r.patientEmail && <Text fz="xs" c="dimmed">{r.patientEmail}</Text>}
              </Table.Td>
              <Table.Td fz="sm">{formatCalendarDate(r.dateOfBirth)}</Table.Td>
              <Table.Td>
                <Badge color={r.current ? AA_COLORS.green : AA_COLORS.gray}>{r.current ? 'Current' : r.status === 'Approved' ? 'Expired' : r.status}</Badge>
              </Table.Td>
              <Table.Td fz="sm">{formatCents(r.approvedPriceCents)}</Table.Td>
              <Table.Td fz="sm">{r.validUntil ? formatCalendarDate(r.validUntil) : '—'}</Table.Td>
              <Table.Td fz="sm" maw={280} style={{ wordBreak: 'break-word' }}>{r.note ?? '—'}</Table.Td>
              <Table.Td fz="sm">
                {formatDate(r.createdAt)}
                {r.createdBy && <Text fz="xs" c="dimmed">by {r.createdBy}</Text>}
              </Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
        <Pager page={page} pageSize={pageSize} total={records.data?.total ?? 0} onPage={setPage} onPageSize={(n) => { setPageSize(n); setPage(1); }} noun="records" />
      </QueryState>
    </Stack>
  );
}
