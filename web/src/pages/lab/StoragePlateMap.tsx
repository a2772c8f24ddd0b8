import { useState } from 'react';
import { Badge, Button, Group, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { describeSampleStatus, STORAGE_CONTENT_LABELS, workStatusOf, SampleStatus, type StorageWellView } from '@platform/domain';
import { commandError } from '../../forms/server-errors';
import { discardSample, takeOutOfWell, useRefreshStorage, type StoragePlateView } from '../../api/storage';
import { Notice } from '../../components/Notice';
import { useCommand } from '../../forms/use-form-submit';
import { statusColor } from '../../status-colors';
import { PlateGrid, type PlateCell } from './PlateGrid';
import { PrintLabelMenu } from '../../components/labels/PrintLabelMenu';
import { storagePlateLabelPath } from '../../api/labels';
import { formatDateTime } from '../../format';

/** A Mantine colour ('teal.9') or a CSS one ('#1e7b34') as a CSS value. */
function cssColor(color: string): string {
  const [name, shade] = color.split('.');
  return shade ? `var(--mantine-color-${name}-${shade})` : color;
}

/** Controls and re-extractions: light fills with dark text. Samples: their status colour (AA for white text). */
const KIND_FILL: Record<string, string> = {
  're-extraction': 'var(--mantine-color-orange-1)',
  positive: 'var(--mantine-color-red-1)',
  negative: 'var(--mantine-color-blue-1)',
  null: 'var(--mantine-color-gray-2)',
};

/** The status a well is coloured by: the one its sample goes back to when taken out (its work goes on while stored). */
const shownStatus = (w: StorageWellView) => (w.status ? workStatusOf({ status: w.status, statusBeforeStorage: w.statusBeforeStorage }) : null);

function statusWords(w: StorageWellView): string {
  if (!w.status) return STORAGE_CONTENT_LABELS[w.kind];
  if (w.kind === 're-extraction') return `re-extraction; the sample is ${w.status}`;
  return describeSampleStatus({ status: w.status, statusBeforeStorage: w.statusBeforeStorage });
}

/** What fits in a well: a sample id's last five characters (what tells tubes apart), a control's short name. */
const SHORT_CONTROL: Record<string, string> = { positive: 'POS', negative: 'NEG', null: 'Null' };
function shortLabel(w: StorageWellView): string {
  if (w.kind === 'sample') return `…${w.label.slice(-5)}`;
  if (w.kind === 're-extraction') return `…${w.label.replace(/\.reex$/, '').slice(-4)}.rx`;
  return SHORT_CONTROL[w.kind] ?? w.label;
}

function cellOf(w: StorageWellView | undefined, well: string): PlateCell {
  if (!w) return { tooltip: `${well}: empty`, ariaLabel: `Well ${well}, empty` };
  const status = shownStatus(w);
  const filled = w.kind === 'sample' && status;
  return {
    content: shortLabel(w),
    background: filled ? cssColor(statusColor(status)) : KIND_FILL[w.kind],
    color: filled ? 'white' : undefined,
    tooltip: `${well}: ${w.label} · ${statusWords(w)}`,
    ariaLabel: `Well ${well}: ${w.label}, ${statusWords(w)}`,
  };
}

/** The colours the plate uses, in words: the statuses present, then the kinds of controls. */
function Legend({ wells }: { wells: StorageWellView[] }) {
  const statuses = [...new Set(wells.filter((w) => w.kind === 'sample').map(shownStatus).filter((s): s is SampleStatus => s !== null))];
  const kinds = [...new Set(wells.filter((w) => w.kind !== 'sample').map((w) => w.kind))];
  const swatch = (background: string) => <span aria-hidden style={{ display: 'inline-block', width: 14, height: 14, borderRadius: 3, background, border: '1px solid var(--mantine-color-gray-4)' }} />;
  return (
    <Group gap="md" aria-label="Legend" role="list">
      {statuses.map((s) => (
        <Group key={s} gap={6} role="listitem">{swatch(cssColor(statusColor(s)))}<Text fz="xs">{s}</Text></Group>
      ))}
      {kinds.map((k) => (
        <Group key={k} gap={6} role="listitem">{swatch(KIND_FILL[k])}<Text fz="xs">{STORAGE_CONTENT_LABELS[k]}</Text></Group>
      ))}
      <Group gap={6} role="listitem">{swatch('transparent')}<Text fz="xs">empty</Text></Group>
      {statuses.length > 0 && <Text fz="xs" c="dimmed">Samples on a plate are In Storage; each is coloured by the status it goes back to when taken out.</Text>}
    </Group>
  );
}

/** One filled well: what it holds, its sample's status, who placed it; take it out, or discard a Completed sample. */
function WellDetail({ plate, well, onDone }: { plate: StoragePlateView; well: StorageWellView; onDone: (message: string) => void }) {
  const refresh = useRefreshStorage();
  const [confirming, setConfirming] = useState(false);
  const takingOut = useCommand(`storage-take-out:${plate.id}`, (w: string) => takeOutOfWell(plate.id, w));
  const discarding = useCommand('storage-discard', (sampleId: string) => discardSample(sampleId));
  const discardable = well.kind === 'sample' && shownStatus(well) === SampleStatus.Completed;
  const run = async (action: () => Promise<{ message: string }>) => {
    const answer = await action().catch(() => undefined); // the error shows below
    if (!answer) return;
    setConfirming(false);
    refresh();
    onDone(answer.message);
  };
  const error = takingOut.error ?? discarding.error;
  return (
    <Paper withBorder p="md" aria-label={`Well ${well.well}`} role="region">
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={3} fz="lg">Well {well.well}: <Text span ff="monospace" inherit>{well.label}</Text></Title>
          {well.status && <Badge color={statusColor(well.status)}>{well.status}</Badge>}
        </Group>
        <Text fz="sm">{STORAGE_CONTENT_LABELS[well.kind]} · {statusWords(well)}</Text>
        <Text fz="sm" c="dimmed">Placed by {well.placedBy.name}, {formatDateTime(well.placedAt)}</Text>
        {error !== undefined && <Notice color="red" title="Not done">{commandError(error)}</Notice>}
        {confirming ? (
          <Group gap="sm">
            <Text fz="sm">Discard {well.label}? The specimen is thrown away; this cannot be undone.</Text>
            <Button color="red" onClick={() => void run(() => discarding.trigger(well.label))} loading={discarding.isMutating}>Discard</Button>
            <Button variant="subtle" onClick={() => setConfirming(false)}>Cancel</Button>
          </Group>
        ) : (
          <Group gap="sm">
            <Button variant="light" onClick={() => void run(() => takingOut.trigger(well.well))} loading={takingOut.isMutating}>Take out</Button>
            {well.kind === 'sample' && (
              <Button variant="light" color="red" onClick={() => setConfirming(true)} disabled={!discardable}>Discard…</Button>
            )}
            {well.kind === 'sample' && !discardable && <Text fz="xs" c="dimmed">Only a Completed sample can be discarded.</Text>}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** A plate's map: the 8×12 grid coloured by status with its legend; a click on a well selects it and shows what it holds. */
export function StoragePlateMap({ plate, selected, onSelect, onDone }: {
  plate: StoragePlateView;
  selected: string | null;
  onSelect: (well: string) => void;
  onDone: (message: string) => void;
}) {
  const byWell = new Map(plate.wells.map((w) => [w.well, w]));
  const chosen = selected ? byWell.get(selected) : undefined;
  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <PrintLabelMenu pathFor={(output) => storagePlateLabelPath(plate.id, output)} fileName={`labels-${plate.name}`} what={`plate ${plate.name}`} />
      </Group>
      <ScrollArea>
        <PlateGrid label={`Plate ${plate.name}`} minWidth={620} selected={selected} onSelect={onSelect} cell={(well) => cellOf(byWell.get(well), well)} />
      </ScrollArea>
      <Legend wells={plate.wells} />
      {chosen && <WellDetail key={`${plate.id}:${chosen.well}:${chosen.label}`} plate={plate} well={chosen} onDone={onDone} />}
    </Stack>
  );
}
