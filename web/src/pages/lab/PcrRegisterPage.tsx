import { useMemo, useRef, useState, type FormEvent } from 'react';
import { Anchor, Button, Grid, Group, List, Paper, ScrollArea, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { LAB_SAMPLE_TYPES, PCR_WELLS, type SampleType } from '@platform/domain';
import { commandError, createLabSample, registerPlate, usePcrQueue, useRefreshLab, type Plate } from '../../api/lab';
import { ApiError } from '../../api/fetcher';
import { LabPageFrame } from './LabPageFrame';
import { Notice } from './Notice';
import { PcrPlateGrid } from './PcrPlateGrid';
import { formatDateTime, localInputToIso, nowLocalInput } from './format';
import { LAB_PATHS } from './paths';

/** A lab-ordered COVID-19 PCR sample: a new patient and the tube's barcode; it is In Queue at once. */
function NewCovidSample({ onCreated }: { onCreated: () => void }) {
  const empty = { barcode: '', firstName: '', lastName: '', dateOfBirth: '', email: '', collectedAt: '' };
  const [form, setForm] = useState(empty);
  const [sampleType, setSampleType] = useState<SampleType | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const field = (name: keyof typeof empty) => ({
    value: form[name],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [name]: e.currentTarget.value }),
    error: error instanceof ApiError ? error.fieldMessage(name) ?? error.fieldMessage(`patient.${name}`) : undefined,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!sampleType) return setError('Choose the sample type');
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const created = await createLabSample({
        barcode: form.barcode.trim(),
        sampleType,
        collectedAt: localInputToIso(form.collectedAt),
        patient: { firstName: form.firstName, lastName: form.lastName, dateOfBirth: form.dateOfBirth, ...(form.email.trim() ? { email: form.email.trim() } : {}) },
      });
      setDone(`${created.barcode} registered for ${created.patient} (order ${created.orderNumber}): In Queue`);
      setForm(empty);
      onCreated();
    } catch (e) {
      setError(e instanceof ApiError ? e : commandError(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Title order={2} fz="lg">Register a COVID-19 sample</Title>
          <Text fz="sm" c="dimmed">For swabs the lab orders itself (origin Lab Ordered). The sample is received at once.</Text>
          <TextInput label="Tube barcode" required {...field('barcode')} autoComplete="off" ff="monospace" />
          <Group grow>
            <TextInput label="First name" required {...field('firstName')} />
            <TextInput label="Last name" required {...field('lastName')} />
          </Group>
          <Group grow>
            <TextInput label="Date of birth" type="date" required {...field('dateOfBirth')} />
            <Select label="Sample type" data={LAB_SAMPLE_TYPES as string[]} value={sampleType} onChange={(v) => setSampleType(v as SampleType | null)} required
              error={error instanceof ApiError ? error.fieldMessage('sampleType') : undefined} />
          </Group>
          <Group grow>
            <TextInput label="Collected at" type="datetime-local" max={nowLocalInput()} {...field('collectedAt')} />
            <TextInput label="Patient email (optional)" type="email" {...field('email')} />
          </Group>
          {error && !(error instanceof ApiError && error.fields.length) && <Notice color="red">{typeof error === 'string' ? error : error.serverMessage}</Notice>}
          {done && <Notice color="green">{done}</Notice>}
          <Group><Button type="submit" loading={busy}>Register sample</Button></Group>
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * /lab_toolbox/pcr_register: put COVID-19 PCR samples and controls on a plate, well by well
 * (scan into the selected well, which then moves on down the columns), and register it: the
 * samples go to In Testing.
 */
export function PcrRegisterPage() {
  const refresh = useRefreshLab();
  const [name, setName] = useState('');
  const [wells, setWells] = useState<Record<string, string>>({});
  const [cursor, setCursor] = useState<string>(PCR_WELLS[0]);
  const [scan, setScan] = useState('');
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[]>([]);
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

  async function submit() {
    setBusy(true);
    setProblems([]);
    try {
      const plate = await registerPlate({ name: name.trim(), wells: PCR_WELLS.filter((w) => wells[w]).map((w) => ({ well: w, barcode: wells[w] })) });
      setRegistered(plate);
      setWells({});
      setName('');
      setCursor(PCR_WELLS[0]);
      refresh();
    } catch (e) {
      setProblems(e instanceof ApiError && e.fields.length ? e.fields.map((f) => f.message) : [commandError(e)]);
    } finally {
      setBusy(false);
    }
  }

  const filled = Object.keys(wells).length;
  return (
    <LabPageFrame title="PCR register" subtitle="COVID-19 PCR: build a plate of samples and controls, then register it.">
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Paper withBorder p="md">
            <Stack gap="md">
              <Group align="flex-end" gap="sm" wrap="wrap">
                <TextInput label="Plate name" placeholder="e.g. PCR 2026-11-21 A" value={name} onChange={(e) => setName(e.currentTarget.value)} required w={{ base: '100%', sm: 260 }} />
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
              {problems.length > 0 && (
                <Notice color="red" title="The plate was not registered">
                  <List size="sm">{problems.map((p) => <List.Item key={p}>{p}</List.Item>)}</List>
                </Notice>
              )}
              {registered && (
                <Notice color="green" title={`Plate ${registered.name} registered`}>
                  {registered.sampleCount} {registered.sampleCount === 1 ? 'sample is' : 'samples are'} now In Testing.{' '}
                  <Anchor component={Link} to={`${LAB_PATHS.pcrResulting}?plate=${registered.id}`}>Enter its results</Anchor> after the run.
                </Notice>
              )}
              <Group>
                <Button onClick={submit} loading={busy} disabled={!name.trim() || filled === 0}>
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
                <Text fz="sm" c="dimmed">{queue ? `${queue.total} COVID-19 PCR samples In Queue` : 'Loading…'}</Text>
                <ScrollArea.Autosize mah={360}>
                  <Table aria-label="COVID-19 PCR samples In Queue">
                    <Table.Tbody>
                      {queue?.rows.map((s) => (
                        <Table.Tr key={s.sampleId}>
                          <Table.Td ff="monospace" fz="sm">{s.barcode}</Table.Td>
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
