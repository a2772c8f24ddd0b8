import { useRef, useState, type FormEvent } from 'react';
import { Anchor, Badge, Button, Grid, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useSearchParams } from 'react-router-dom';
import { countOf, DEFAULT_PAGE_SIZE, STORAGE_CONTENT_LABELS } from '@platform/domain';
import { commandError } from '../../forms/server-errors';
import { createStoragePlate, useRefreshStorage, useSampleLocation, useStoragePlate, useStoragePlates } from '../../api/storage';
import { FormError } from '../../components/FormError';
import { Notice } from '../../components/Notice';
import { Pager } from '../../components/Pager';
import { useFormSubmit } from '../../forms/use-form-submit';
import { statusColor } from '../../status-colors';
import { LabPageFrame } from './LabPageFrame';
import { StorageImport } from './StorageImport';
import { StoragePlateMap } from './StoragePlateMap';
import { StorageScanBox, type StorageScanBoxHandle } from './StorageScanBox';
import { formatDateTime } from '../../format';

/** "Find a sample": a sample id (as scanned) -> the plate and well it is in, and where it was. */
function FindSample({ onOpen }: { onOpen: (plateId: number, well: string) => void }) {
  const [typed, setTyped] = useState('');
  const [term, setTerm] = useState<string | null>(null);
  const { data, error, isLoading } = useSampleLocation(term);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed !== '') setTerm(typed);
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <form onSubmit={submit}>
          <Group align="flex-end" gap="xs">
            <TextInput label="Find a sample" placeholder="Sample id, then Enter" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" ff="monospace" style={{ flex: 1 }} />
            <Button type="submit" variant="light" loading={isLoading}>Find</Button>
          </Group>
        </form>
        {error && <Text fz="sm" c="red.9" role="alert">{error.fieldMessage('sampleId') ?? error.serverMessage}</Text>}
        {data && (
          <Stack gap={4} aria-live="polite">
            <Group gap="xs">
              <Text fz="sm" ff="monospace">{data.sample.barcode}</Text>
              <Badge color={statusColor(data.sample.status)}>{data.sample.status}</Badge>
            </Group>
            {data.places.length === 0 && <Text fz="sm">Not on a storage plate.</Text>}
            {data.places.map((p) => (
              <Group key={`${p.plateId}:${p.well}`} gap="xs">
                <Text fz="sm">{p.kind === 're-extraction' ? 'Re-extraction: ' : ''}plate <b>{p.plateName}</b>, well <b>{p.well}</b></Text>
                <Anchor component="button" type="button" fz="sm" onClick={() => onOpen(p.plateId, p.well)}>Open</Anchor>
              </Group>
            ))}
            {data.history.slice(0, 3).map((p) => (
              <Text key={`${p.plateId}:${p.well}:${p.placedAt}`} fz="xs" c="dimmed">
                Was on {p.plateName} {p.well} until {formatDateTime(p.removedAt!)} ({p.removal}, {p.removedBy?.name})
              </Text>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/** A new, empty plate; its name is its barcode and must be unique. */
function NewPlate({ onCreated }: { onCreated: (plateId: number) => void }) {
  const refresh = useRefreshStorage();
  const form = useForm({ initialValues: { name: '' } });
  const sending = useFormSubmit(form, (values) => createStoragePlate(values.name), {
    onSuccess: (plate) => {
      form.reset();
      refresh();
      onCreated(plate.id);
    },
  });
  return (
    <Paper withBorder p="md">
      <form onSubmit={sending.onSubmit} noValidate>
        <Stack gap="xs">
          <Group align="flex-start" gap="xs">
            <TextInput label="New plate" placeholder="Plate barcode or name" {...form.getInputProps('name')} autoComplete="off" ff="monospace" style={{ flex: 1 }} />
            <Button type="submit" mt={25} loading={sending.submitting}>Create</Button>
          </Group>
          <FormError error={sending.error ? commandError(sending.error) : undefined} />
        </Stack>
      </form>
    </Paper>
  );
}

function PlateList({ selected, onChoose }: { selected: number | null; onChoose: (plateId: number) => void }) {
  const [page, setPage] = useState(1);
  const [name, setName] = useState('');
  const { data } = useStoragePlates({ page, pageSize: DEFAULT_PAGE_SIZE, name });
  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={2} fz="lg">Plates</Title>
        <TextInput aria-label="Filter plates by name" placeholder="Filter by name" value={name} onChange={(e) => { setName(e.currentTarget.value); setPage(1); }} />
        <Table aria-label="Storage plates" highlightOnHover>
          <Table.Thead>
            <Table.Tr><Table.Th>Plate</Table.Th><Table.Th>Samples</Table.Th><Table.Th>Free</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data?.rows.map((p) => (
              <Table.Tr key={p.id} bg={p.id === selected ? 'var(--mantine-color-blue-light)' : undefined}>
                <Table.Td>
                  <Anchor component="button" type="button" onClick={() => onChoose(p.id)} aria-current={p.id === selected ? 'true' : undefined} ff="monospace" fz="sm" style={{ whiteSpace: 'nowrap' }}>{p.name}</Anchor>
                </Table.Td>
                <Table.Td>{p.sampleCount}{p.controlCount ? ` + ${countOf(p.controlCount, 'control', 'controls')}` : ''}</Table.Td>
                <Table.Td>{p.freeWells}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {data && <Pager page={page} pageSize={DEFAULT_PAGE_SIZE} total={data.total} onPage={setPage} noun="plates" />}
      </Stack>
    </Paper>
  );
}

/** The chosen plate: scanning onto it, its map, and what was just done. */
function PlatePanel({ plateId, well, onWell }: { plateId: number; well: string | null; onWell: (well: string | null) => void }) {
  const { data: plate, error } = useStoragePlate(plateId);
  const [done, setDone] = useState<string | null>(null);
  const scanBox = useRef<StorageScanBoxHandle>(null);
  if (error) return <Notice color="red">{commandError(error)}</Notice>;
  if (!plate) return <Text c="dimmed">Loading the plate…</Text>;
  const select = (w: string) => {
    setDone(null);
    onWell(w);
    if (!plate.wells.some((x) => x.well === w)) scanBox.current?.aimAt(w);
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={2} fz="xl">Plate <Text span ff="monospace" inherit>{plate.name}</Text></Title>
          <Text fz="sm" c="dimmed">
            {countOf(plate.sampleCount, 'sample', 'samples')} · {countOf(plate.controlCount, 'control', 'controls')} · {plate.freeWells} free · created by {plate.createdBy.name}, {formatDateTime(plate.createdAt)}
          </Text>
        </Group>
        {/* The well's buttons that led to the message went with its detail, and this page keeps the focus in its scan
            box: dismissing the message gives it back there. */}
        {done && <Notice color="green" onClose={() => { setDone(null); scanBox.current?.focus(); }}>{done}</Notice>}
        <StorageScanBox key={plate.id} ref={scanBox} plate={plate}>
          <StoragePlateMap
            plate={plate}
            selected={well}
            onSelect={select}
            onDone={(message) => { setDone(message); onWell(null); scanBox.current?.focus(); }}
          />
        </StorageScanBox>
        <Text fz="xs" c="dimmed">
          Hover a well for its sample id; click it for its status, to take it out, or to discard a {STORAGE_CONTENT_LABELS.sample} that is Completed. A click on an empty well sends the next scan there.
        </Text>
      </Stack>
    </Paper>
  );
}

/**
 * /lab_toolbox/storage_plate_import_tool: storage plates. Choose or create a plate, scan samples
 * onto it (the next free well is suggested; Enter places), read its map (wells coloured by status),
 * take a sample out or discard a Completed one, find where a sample is, or place a whole file.
 */
export function StoragePlatesPage() {
  const [params, setParams] = useSearchParams();
  const plateId = Number(params.get('plate')) || null;
  const well = params.get('well');
  const open = (id: number, w: string | null = null) => setParams(w ? { plate: String(id), well: w } : { plate: String(id) });
  return (
    <LabPageFrame title="Storage plates" subtitle="Place samples on 96-well storage plates by scanning or from a file; find them; take them out or discard them." maxWidth={1400}>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 3 }}>
          <Stack gap="lg">
            <FindSample onOpen={open} />
            <NewPlate onCreated={(id) => open(id)} />
            <PlateList selected={plateId} onChoose={(id) => open(id)} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 9 }}>
          {plateId ? (
            <PlatePanel plateId={plateId} well={well} onWell={(w) => open(plateId, w)} />
          ) : (
            <Notice color="blue" title="Choose a plate">Choose a plate from the list, or create one, to scan samples onto it and see its map.</Notice>
          )}
        </Grid.Col>
      </Grid>
      <StorageImport />
    </LabPageFrame>
  );
}
