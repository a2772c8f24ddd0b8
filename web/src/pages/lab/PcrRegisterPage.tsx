import { useMemo, useRef, useState } from 'react';
import { Anchor, Button, Grid, Group, List, Paper, ScrollArea, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router-dom';
import { countOf, LAB_ORDERABLE_TESTS, LAB_SAMPLE_TYPES, PCR_WELLS, TestName, type SampleType } from '@platform/domain';
import { createLabSample, registerPlate, usePcrQueue, useRefreshLab, type Plate } from '../../api/lab';
import { commandError } from '../../forms/server-errors';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { LabPageFrame } from './LabPageFrame';
import { Notice } from '../../components/Notice';
import { PcrPlateGrid } from './PcrPlateGrid';
import { formatDateTime, localInputToIso, nowLocalInput } from '../../format';
import { LAB_PATHS } from './paths';

/** A lab-ordered COVID-19 sample (PCR or Rapid): a new patient and the tube's barcode; it is In Queue at once. */
function NewCovidSample({ onCreated }: { onCreated: () => void }) {
  const empty = { barcode: '', test: TestName.CovidPcr as TestName, firstName: '', lastName: '', dateOfBirth: '', email: '', collectedAt: '', sampleType: null as SampleType | null };
  const [done, setDone] = useState<string | null>(null);
  const form = useForm({
    initialValues: empty,
    validate: { sampleType: (value) => (value ? null : 'Choose the sample type') },
  });
  const sending = useFormSubmit(
    form,
    (values) => {
      setDone(null);
      return createLabSample({
        barcode: values.barcode.trim(),
        test: values.test,
        sampleType: values.sampleType!,
        collectedAt: localInputToIso(values.collectedAt),
        patient: { firstName: values.firstName, lastName: values.lastName, dateOfBirth: values.dateOfBirth, ...(values.email.trim() ? { email: values.email.trim() } : {}) },
      });
    },
    {
      // The patient's fields come back as patient.firstName and so on.
      fieldOf: (field) => {
        const name = field.replace(/^patient\./, '');
        return name in empty ? name : undefined;
      },
      onSuccess: (created) => {
        setDone(`${created.barcode} registered for ${created.patient} (${created.test}, order ${created.orderNumber}): In Queue`);
        form.reset();
        onCreated();
      },
    },
  );
  const field = (name: keyof typeof empty) => form.getInputProps(name);

  return (
    <Paper withBorder p="md">
      <form onSubmit={sending.onSubmit} noValidate>
        <Stack gap="sm">
          <Title order={2} fz="lg">Register a COVID-19 sample</Title>
          <Text fz="sm" c="dimmed">For swabs the lab orders itself (origin Lab Ordered). The sample is received at once.</Text>
          <Group grow>
            <TextInput label="Tube barcode" required {...field('barcode')} autoComplete="off" ff="monospace" />
            <Select label="Test" data={LAB_ORDERABLE_TESTS as string[]} required allowDeselect={false} {...field('test')} />
          </Group>
          <Group grow>
            <TextInput label="First name" required {...field('firstName')} />
            <TextInput label="Last name" required {...field('lastName')} />
          </Group>
          <Group grow>
            <TextInput label="Date of birth" type="date" required {...field('dateOfBirth')} />
            <Select label="Sample type" data={LAB_SAMPLE_TYPES as string[]} required {...field('sampleType')} />
          </Group>
          <Group grow>
            <TextInput label="Collected at" type="datetime-local" max={nowLocalInput()} {...field('collectedAt')} />
            <TextInput label="Patient email (optional)" type="email" {...field('email')} />
          </Group>
          <FormError error={sending.error ? commandError(sending.error) : undefined} />
          {done && <Notice color="green">{done}</Notice>}
          <Group><Button type="submit" loading={sending.submitting}>Register sample</Button></Group>
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * /lab_toolbox/pcr_register: put COVID-19 PCR and Rapid samples and controls on a plate, well by well
 * (scan into the selected well, which then moves on down the columns), and register it: the
 * samples go to In Testing.
 */
export function PcrRegisterPage() {
  const refresh = useRefreshLab();
  const plate = useForm<{ name: string; wells: Record<string, string> }>({ initialValues: { name: '', wells: {} } });
  const { name, wells } = plate.getValues();
  const setWells = (next: Record<string, string>) => plate.setFieldValue('wells', next);
  const [cursor, setCursor] = useState<string>(PCR_WELLS[0]);
  const [scan, setScan] = useState('');
  const [registered, setRegistered] = useState<Plate | null>(null);
  const scanInput = useRef<HTMLInputElement>(null);
  const { data: queue } = usePcrQueue({ page: 1, pageSize: 96 });
  const onPlate = useMemo(() => new Set(Object.values(wells).map((l) => l.replace(/\.reex$/, ''))), [wells]);

  const nextFree = (after: string, filled: Record<string, string>) => {
    const start = PCR_WELLS.indexOf(after);
    for (let i = 1; i <= PCR_WELLS.length; i++) {
      const w = PCR_WELLS[(start + i) % PCR_WELLS.length];
      if (!filled[w]) return w;
    }
    return after;
  };

  function place(label: string) {
    const value = label.trim();
    if (!value) return;
    const next = { ...wells, [cursor]: value };
    setWells(next);
    setCursor(nextFree(cursor, next));
    setRegistered(null);
    window.setTimeout(() => scanInput.current?.focus(), 0);
  }

  function clearWell() {
    const next = { ...wells };
    delete next[cursor];
    setWells(next);
  }

  const sending = useFormSubmit(
    plate,
    (values) => registerPlate({ name: values.name.trim(), wells: PCR_WELLS.filter((w) => values.wells[w]).map((w) => ({ well: w, barcode: values.wells[w] })) }),
    {
      // Well errors name no input: they are listed together below the plate.
      fieldOf: () => undefined,
      onSuccess: (registeredPlate) => {
        setRegistered(registeredPlate);
        plate.reset();
        setCursor(PCR_WELLS[0]);
        refresh();
      },
    },
  );
  const problems = sending.error === undefined ? [] : sending.error instanceof ApiError && sending.error.fields.length ? sending.error.fields.map((f) => f.message) : [commandError(sending.error)];

  const filled = Object.keys(wells).length;
  return (
    <LabPageFrame title="PCR register" subtitle="COVID-19 PCR and Rapid: build a plate (or run) of samples and controls, then register it.">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Paper withBorder p="md">
            <Stack gap="md">
              <Group align="flex-end" gap="sm" wrap="wrap">
                <TextInput label="Plate name" placeholder="e.g. PCR 2026-11-21 A" value={name} onChange={(e) => plate.setFieldValue('name', e.currentTarget.value)} required w={{ base: '100%', sm: 260 }} />
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    place(scan);
                    setScan('');
                  }}
                  style={{ flex: 1, minWidth: 260 }}
                >
                  <TextInput
                    ref={scanInput}
                    label={`Scan into well ${cursor}`}
                    description="A tube barcode, barcode.reex for a re-extraction, or a control (POS PCR CTRL, NEG PCR CTRL, Null)"
                    value={scan}
                    onChange={(e) => setScan(e.currentTarget.value)}
                    autoComplete="off"
                    ff="monospace"
                  />
                </form>
              </Group>
              <Group gap="xs">
                <Button size="xs" variant="light" color="red" onClick={() => place('POS PCR CTRL')}>Positive control → {cursor}</Button>
                <Button size="xs" variant="light" color="blue" onClick={() => place('NEG PCR CTRL')}>Negative control → {cursor}</Button>
                <Button size="xs" variant="light" color="gray" onClick={() => place('Null')}>Null → {cursor}</Button>
                <Button size="xs" variant="subtle" onClick={clearWell} disabled={!wells[cursor]}>Empty {cursor}</Button>
              </Group>
              <ScrollArea>
                <PcrPlateGrid wells={wells} selected={cursor} onSelect={setCursor} />
              </ScrollArea>
              <FormError title="The plate was not registered" error={problems.length > 0} message={<List size="sm">{problems.map((p) => <List.Item key={p}>{p}</List.Item>)}</List>} />
              {registered && (
                <Notice color="green" title={`Plate ${registered.name} registered`}>
                  {registered.sampleCount} {registered.sampleCount === 1 ? 'sample is' : 'samples are'} now In Testing.{' '}
                  <Anchor component={Link} to={`${LAB_PATHS.pcrResulting}?plate=${registered.id}`}>Enter its results</Anchor> after the run.
                </Notice>
              )}
              <Group>
                <Button onClick={sending.submit} loading={sending.submitting} disabled={!name.trim() || filled === 0}>
                  Register plate ({filled} {filled === 1 ? 'well' : 'wells'})
                </Button>
                <Button variant="subtle" onClick={() => { setWells({}); setCursor(PCR_WELLS[0]); }} disabled={filled === 0}>Start over</Button>
              </Group>
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="lg">
            <Paper withBorder p="md">
              <Stack gap="xs">
                <Title order={2} fz="lg">Waiting for a plate</Title>
                <Text fz="sm" c="dimmed">{queue ? `${countOf(queue.total, 'COVID-19 sample', 'COVID-19 samples')} In Queue` : 'Loading…'}</Text>
                <ScrollArea.Autosize mah={360}>
                  <Table aria-label="COVID-19 samples In Queue">
                    <Table.Tbody>
                      {queue?.rows.map((s) => (
                        <Table.Tr key={s.sampleId}>
                          <Table.Td fz="sm"><Text ff="monospace" fz="sm">{s.barcode}</Text><Text fz="xs" c="dimmed">{s.test}</Text></Table.Td>
                          <Table.Td fz="xs">{s.patient}<br /><Text span c="dimmed" fz="xs">{formatDateTime(s.receivedAt)}</Text></Table.Td>
                          <Table.Td>
                            <Button size="compact-xs" variant="light" disabled={onPlate.has(s.barcode)} onClick={() => place(s.barcode)}>
                              {onPlate.has(s.barcode) ? 'On plate' : `→ ${cursor}`}
                            </Button>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollArea.Autosize>
              </Stack>
            </Paper>
            <NewCovidSample onCreated={refresh} />
          </Stack>
        </Grid.Col>
      </Grid>
    </LabPageFrame>
  );
}
