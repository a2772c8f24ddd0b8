import { forwardRef, useImperativeHandle, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Badge, Button, Group, Paper, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { commandError } from '../../forms/server-errors';
import { placeInWell, useRefreshStorage, type StoragePlateView } from '../../api/storage';
import { AA_COLORS } from '../../status-colors';
import { formatTime } from '../../format';

type Outcome = 'pending' | 'placed' | 'refused';
interface LogEntry { id: number; at: Date; scanned: string; well: string; outcome: Outcome; message: string }

const OUTCOME_BADGE: Record<Outcome, { color: string; label: string }> = {
  pending: { color: AA_COLORS.gray, label: 'Placing' },
  placed: { color: AA_COLORS.green, label: 'Placed' },
  refused: { color: AA_COLORS.red, label: 'Refused' },
};

export interface StorageScanBoxHandle {
  /** Points the next scan at a well (a click on an empty well of the map). */
  aimAt(well: string): void;
  focus(): void;
}

/**
 * Scanning onto a plate: the next free well is suggested, a scan and Enter places it, and the
 * suggestion moves on. The scan box keeps the focus, scans queue up and are sent one after
 * another (each goes to the well the previous answer suggested), and each gets its line in the
 * log: forty in a row without touching the mouse. A scan is sent exactly as read, never trimmed.
 * Render it with key={plate.id}: another plate starts with its own next free well and log. The
 * children (the plate map) sit between the scan box and the log.
 */
export const StorageScanBox = forwardRef<StorageScanBoxHandle, { plate: StoragePlateView; children?: ReactNode }>(function StorageScanBox({ plate, children }, ref) {
  const refresh = useRefreshStorage();
  const [scan, setScan] = useState('');
  const [well, setWellState] = useState(plate.nextFreeWell ?? '');
  const [log, setLog] = useState<LogEntry[]>([]);
  const target = useRef(plate.nextFreeWell ?? '');
  const queue = useRef<{ id: number; scanned: string }[]>([]);
  const busy = useRef(false);
  const nextId = useRef(1);
  const input = useRef<HTMLInputElement>(null);

  const setWell = (value: string) => {
    target.current = value;
    setWellState(value);
  };
  const refocus = () => window.setTimeout(() => input.current?.focus(), 0);
  const update = (id: number, patch: Partial<LogEntry>) => setLog((entries) => entries.map((e) => (e.id === id ? { ...e, ...patch } : e)));
  useImperativeHandle(ref, () => ({ aimAt: (w) => { setWell(w); refocus(); }, focus: refocus }));

  async function drain() {
    if (busy.current) return;
    busy.current = true;
    try {
      for (let next = queue.current.shift(); next; next = queue.current.shift()) {
        const into = target.current;
        update(next.id, { well: into });
        try {
          const placed = await placeInWell(plate.id, into, next.scanned);
          update(next.id, { outcome: 'placed', well: placed.well, message: placed.message });
          setWell(placed.nextFreeWell ?? '');
          refresh();
        } catch (error) {
          update(next.id, { outcome: 'refused', message: commandError(error) });
        }
      }
    } finally {
      busy.current = false;
    }
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const scanned = scan;
    setScan('');
    refocus();
    if (scanned === '') return;
    const id = nextId.current++;
    setLog((entries) => [{ id, at: new Date(), scanned, well: target.current, outcome: 'pending', message: 'Placing…' }, ...entries]);
    queue.current.push({ id, scanned });
    void drain();
  };

  const counts = log.reduce((acc, e) => ({ ...acc, [e.outcome]: (acc[e.outcome] ?? 0) + 1 }), {} as Partial<Record<Outcome, number>>);
  return (
    <Stack gap="sm">
      <form onSubmit={submit}>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label="Well"
            description={plate.nextFreeWell ? 'Next free well' : 'The plate is full'}
            value={well}
            onChange={(e) => setWell(e.currentTarget.value)}
            autoComplete="off"
            w={110}
            ff="monospace"
          />
          <TextInput
            ref={input}
            label={`Scan a sample id into ${plate.name}`}
            description="A sample id, sample id.reex, or a control (POS PCR CTRL, NEG PCR CTRL, Null); Enter places it"
            placeholder="Sample id, then Enter"
            value={scan}
            onChange={(e) => setScan(e.currentTarget.value)}
            onBlur={(e) => {
              // Keep the scanner's target: only a click on another control takes the focus away.
              if (e.relatedTarget === null) refocus();
            }}
            autoFocus
            autoComplete="off"
            spellCheck={false}
            size="md"
            style={{ flex: 1, minWidth: 260 }}
            styles={{ input: { fontFamily: 'monospace', letterSpacing: 1 } }}
          />
          <Button type="submit" size="md">Place</Button>
        </Group>
      </form>
      {children}
      {log.length > 0 && (
        <Paper withBorder p="xs">
          <Text fz="sm" aria-live="polite">
            This session: {counts.placed ?? 0} placed · {counts.refused ?? 0} refused
          </Text>
          <ScrollArea.Autosize mah={260}>
          <Table aria-label="Scan log" fz="sm">
            <Table.Tbody>
              {log.map((e) => (
                <Table.Tr key={e.id} data-outcome={e.outcome}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(e.at)}</Table.Td>
                  <Table.Td ff="monospace">{e.well}</Table.Td>
                  <Table.Td ff="monospace">{e.scanned}</Table.Td>
                  {/* A badge clips its label (overflow: hidden), so it would not hold this headerless column open: the long
                      messages squeezed "Placed" to "PL…". At least its own width keeps the outcome's word whole. */}
                  <Table.Td><Badge color={OUTCOME_BADGE[e.outcome].color}>{OUTCOME_BADGE[e.outcome].label}</Badge></Table.Td>
                  <Table.Td>{e.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          </ScrollArea.Autosize>
        </Paper>
      )}
    </Stack>
  );
});
