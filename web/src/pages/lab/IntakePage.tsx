import { useRef, useState } from 'react';
import { Badge, Button, Group, Paper, SegmentedControl, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  CONDITION_RULES, REJECTION_REASONS, SPECIMEN_CONDITION_LABELS, SPECIMEN_CONDITIONS, type IntakeKit, type RejectionReason, type SpecimenCondition,
} from '@platform/domain';
import { getIntakeKit, rejectKit, type IntakeOutcome } from '../../api/lab';
import { IntakeCheck } from './IntakeCheck';
import { commandError } from '../../forms/server-errors';
import { LabPageFrame } from './LabPageFrame';
import { Notice } from '../../components/Notice';
import { formatDateTime, formatTime, localInputToIso, nowLocalInput } from '../../format';
import { AA_COLORS } from '../../status-colors';
import { sampleLabelsPath } from '../../api/labels';
import { LabelPrinterFields, LabelPrintError, useLabelPrinter } from '../../components/labels/LabelPrinter';

type Mode = 'receive' | 'reject';
type Outcome = 'pending' | 'received' | 'rejected' | 'refused';

interface LogEntry {
  id: number;
  at: Date;
  barcode: string;
  mode: Mode;
  outcome: Outcome;
  message: string;
  detail?: string;
  /** The kit barcode a label prints for: a received sample's label, or a rejected kit's (set once the scan succeeded). */
  labelBarcode?: string;
}

const OUTCOME_BADGE: Record<Outcome, { color: string; label: string }> = {
  pending: { color: AA_COLORS.gray, label: 'Checking' },
  received: { color: AA_COLORS.green, label: 'Received' },
  rejected: { color: AA_COLORS.orange, label: 'Rejected' },
  refused: { color: AA_COLORS.red, label: 'Refused' },
};

function detailOf(outcome: IntakeOutcome): string {
  return [outcome.tests.join(', '), outcome.account ?? 'Lab ordered', outcome.patient, outcome.status].filter(Boolean).join(' · ');
}

/**
 * /lab_toolbox/intake_tool: scan kits one after another. In Receive, a scan opens the kit's check
 * (IntakeCheck: the specimen's condition, its collection time, the tube's name and date of birth
 * against the requisition), and Receive or Reject there puts a line at the top of the log (green
 * received, orange rejected, red not done with the reason) and gives the focus back to the scan
 * box. Reject mode rejects every kit scanned with the reason and condition chosen beforehand (a
 * box of leaked kits, say).
 * Each received or rejected kit's line has "Print label" (a received sample's label: initials,
 * date of birth, test, receipt date; a rejected kit's: its kit label), and "Print this session's
 * labels" prints them all at once, on the paper chosen beside it.
 */
export function IntakePage() {
  // The scan form; each scan's own progress and outcome live in the log (scans overlap: a
  // scanner does not wait), so there is no one busy flag to keep.
  const form = useForm<{ mode: Mode; reason: RejectionReason | null; condition: SpecimenCondition | null; receivedAt: string; barcode: string }>({
    initialValues: { mode: 'receive', reason: null, condition: null, receivedAt: '', barcode: '' },
  });
  const { mode, reason, condition, receivedAt, barcode: value } = form.getValues();
  // The kit scanned in Receive, being checked (null: none; loading while it is looked up).
  const [checking, setChecking] = useState<{ barcode: string; kit: IntakeKit | null } | null>(null);
  const [log, setLog] = useState<LogEntry[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);

  const reasonInput = useRef<HTMLInputElement>(null);
  const conditionInput = useRef<HTMLInputElement>(null);
  const refocus = () => window.setTimeout(() => input.current?.focus(), 0);
  // Reject mode needs its reason before a scan: the focus goes there first (then to the scan box once chosen).
  const focusReason = () => window.setTimeout(() => reasonInput.current?.focus(), 0);
  const update = (id: number, patch: Partial<LogEntry>) => setLog((entries) => entries.map((e) => (e.id === id ? { ...e, ...patch } : e)));

  const submit = form.onSubmit(({ mode, reason, condition, barcode: typed }) => {
    const barcode = typed.trim();
    form.setFieldValue('barcode', '');
    if (!barcode) {
      refocus();
      return;
    }
    const trimmedNote = barcode !== typed ? ' (spaces around the scan were removed)' : '';
    if (mode === 'reject') {
      refocus();
      if (!reason || !condition) {
        setLog((entries) => [{ id: nextId.current++, at: new Date(), barcode, mode, outcome: 'refused', message: 'Choose the rejection reason and the specimen’s condition first, then scan the kit again' }, ...entries]);
        return;
      }
      const id = nextId.current++;
      setLog((entries) => [{ id, at: new Date(), barcode, mode, outcome: 'pending', message: 'Rejecting…' }, ...entries]);
      rejectKit({ barcode, reason, condition }).then(
        (outcome) => update(id, { outcome: 'rejected', message: outcome.message + trimmedNote, detail: detailOf(outcome), labelBarcode: outcome.barcode }),
        (error: unknown) => update(id, { outcome: 'refused', message: commandError(error) + trimmedNote }),
      );
      return;
    }
    // Receive: the kit is looked up and checked before anything is written.
    setChecking({ barcode, kit: null });
    getIntakeKit(barcode).then(
      (kit) => {
        if (kit.receivable) {
          setChecking((current) => (current?.barcode === barcode ? { barcode, kit } : current));
          return;
        }
        setChecking((current) => (current?.barcode === barcode ? null : current));
        setLog((entries) => [{ id: nextId.current++, at: new Date(), barcode, mode, outcome: 'refused', message: (kit.problem ?? `Sample ${barcode} cannot be received`) + trimmedNote }, ...entries]);
        refocus();
      },
      (error: unknown) => {
        setChecking((current) => (current?.barcode === barcode ? null : current));
        setLog((entries) => [{ id: nextId.current++, at: new Date(), barcode, mode, outcome: 'refused', message: commandError(error) + trimmedNote }, ...entries]);
        refocus();
      },
    );
  });

  const checked = (outcome: IntakeOutcome, action: 'received' | 'rejected') => {
    setLog((entries) => [{
      id: nextId.current++, at: new Date(), barcode: outcome.barcode, mode: action === 'received' ? 'receive' : 'reject', outcome: action,
      message: outcome.message, detail: detailOf(outcome), labelBarcode: outcome.barcode,
    }, ...entries]);
    setChecking(null);
    refocus();
  };

  const printer = useLabelPrinter();
  // The session's labels, in scan order (the log shows the latest first); a kit scanned twice prints once.
  const sessionBarcodes = [...new Set(log.filter((e) => e.labelBarcode).map((e) => e.labelBarcode!).reverse())];
  const printLabels = (barcodes: string[], name: string) => {
    void printer.print((output) => sampleLabelsPath(barcodes, output), barcodes.length, name).then(refocus);
  };

  const counts = log.reduce((acc, e) => ({ ...acc, [e.outcome]: (acc[e.outcome] ?? 0) + 1 }), {} as Partial<Record<Outcome, number>>);

  return (
    <LabPageFrame title="Sample intake" subtitle="Scan each kit as it arrives: received kits go to In Queue; a kit that cannot be tested is rejected with a reason.">
      <Paper withBorder p="md">
        <form onSubmit={submit}>
          <Stack gap="md">
            <Group align="flex-end" gap="md" wrap="wrap">
              <SegmentedControl
                aria-label="What a scan does"
                value={mode}
                onChange={(v) => {
                  form.setFieldValue('mode', v as Mode);
                  if (v === 'reject' && !reason) focusReason();
                  else refocus();
                }}
                data={[
                  { value: 'receive', label: 'Receive' },
                  { value: 'reject', label: 'Reject' },
                ]}
              />
              {mode === 'reject' ? (
                <Select
                  ref={reasonInput}
                  label="Rejection reason"
                  placeholder="Choose a reason"
                  data={REJECTION_REASONS}
                  value={reason}
                  onChange={(v) => {
                    form.setFieldValue('reason', v as RejectionReason | null);
                    // The condition next, when it is not chosen yet; else back to the scan box.
                    if (!form.getValues().condition) window.setTimeout(() => conditionInput.current?.focus(), 0);
                    else refocus();
                  }}
                  w={{ base: '100%', sm: 340 }}
                  required
                />
              ) : null}
              {mode === 'reject' ? (
                <Select
                  ref={conditionInput}
                  label="Specimen condition"
                  placeholder="Choose the condition"
                  data={SPECIMEN_CONDITIONS.map((c) => ({ value: c, label: SPECIMEN_CONDITION_LABELS[c] }))}
                  value={condition}
                  onChange={(v) => {
                    form.setFieldValue('condition', v as SpecimenCondition | null);
                    // The reason this condition calls for, when none is chosen yet.
                    const mapped = v ? CONDITION_RULES[v as SpecimenCondition].rejectionReason : null;
                    if (!form.getValues().reason && mapped) form.setFieldValue('reason', mapped);
                    if (!form.getValues().reason) focusReason();
                    else refocus();
                  }}
                  w={{ base: '100%', sm: 220 }}
                  required
                />
              ) : (
                <TextInput
                  type="datetime-local"
                  label="Received at"
                  description="Leave empty for now"
                  value={receivedAt}
                  max={nowLocalInput()}
                  onChange={(e) => form.setFieldValue('receivedAt', e.currentTarget.value)}
                  // Back to the scan box after a time is picked, unless Tab or Shift+Tab moved on to another control.
                  onBlur={(e) => {
                    if (e.relatedTarget === null) refocus();
                  }}
                  w={{ base: '100%', sm: 240 }}
                />
              )}
            </Group>
            <Group align="flex-end" gap="sm">
              <TextInput
                ref={input}
                label={mode === 'receive' ? 'Scan a kit to receive it' : 'Scan a kit to reject it'}
                description={mode === 'receive' ? 'Its check opens below: condition, collection time, name and date of birth' : undefined}
                placeholder="Kit barcode, then Enter"
                value={value}
                onChange={(e) => form.setFieldValue('barcode', e.currentTarget.value)}
                onBlur={(e) => {
                  // Keep the scanner's target: only a click on another control takes the focus away (or a kit's check opening).
                  if (e.relatedTarget === null && !checking) refocus();
                }}
                autoFocus
                autoComplete="off"
                spellCheck={false}
                size="lg"
                style={{ flex: 1, minWidth: 260 }}
                styles={{ input: { fontFamily: 'monospace', letterSpacing: 1 } }}
              />
              <Button type="submit" size="lg" color={mode === 'reject' ? AA_COLORS.orange : undefined}>
                {mode === 'receive' ? 'Check' : 'Reject'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      {mode === 'reject' && (
        <Notice color="orange">
          Reject mode: every kit scanned now is rejected{reason ? ` (${reason})` : ''}{condition ? `, recorded ${SPECIMEN_CONDITION_LABELS[condition].toLowerCase()}` : ''}. Switch back to Receive when done.
        </Notice>
      )}

      {mode === 'receive' && checking && (checking.kit ? (
        <IntakeCheck
          key={checking.kit.barcode}
          kit={checking.kit}
          receivedAt={receivedAt}
          onDone={checked}
          onCancel={() => { setChecking(null); refocus(); }}
        />
      ) : (
        <Text c="dimmed" role="status">Looking up {checking.barcode}…</Text>
      ))}

      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600} aria-live="polite">
            This session: {counts.received ?? 0} received · {counts.rejected ?? 0} rejected · {counts.refused ?? 0} refused
          </Text>
          {log.length > 0 && (
            <Button variant="subtle" size="xs" onClick={() => { setLog([]); refocus(); }}>
              Clear the log
            </Button>
          )}
        </Group>
        <Paper withBorder p="sm">
          <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
            <LabelPrinterFields printer={printer} />
            <Button
              variant="light"
              disabled={sessionBarcodes.length === 0}
              loading={printer.busy}
              onClick={() => printLabels(sessionBarcodes, 'labels-session')}
            >
              Print this session's labels{sessionBarcodes.length ? ` (${sessionBarcodes.length})` : ''}
            </Button>
          </Group>
          <LabelPrintError printer={printer} />
        </Paper>
        {log.length === 0 ? (
          <Text c="dimmed">Scanned kits appear here, the latest first.</Text>
        ) : (
          <Table striped withTableBorder aria-label="Scan log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>Barcode</Table.Th>
                <Table.Th>Outcome</Table.Th>
                <Table.Th>What happened</Table.Th>
                <Table.Th>Label</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.map((e) => (
                <Table.Tr key={e.id} data-outcome={e.outcome}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(e.at)}</Table.Td>
                  <Table.Td ff="monospace">{e.barcode}</Table.Td>
                  <Table.Td>
                    <Badge color={OUTCOME_BADGE[e.outcome].color} variant={e.outcome === 'pending' ? 'outline' : 'filled'}>
                      {OUTCOME_BADGE[e.outcome].label}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text fz="sm" c={e.outcome === 'refused' ? 'red.9' : undefined}>{e.message}</Text>
                    {e.detail && <Text fz="xs" c="dimmed">{e.detail}</Text>}
                  </Table.Td>
                  <Table.Td>
                    {e.labelBarcode && (
                      <Button
                        size="xs"
                        variant="default"
                        aria-label={`Print label for ${e.labelBarcode}`}
                        disabled={printer.busy}
                        onClick={() => printLabels([e.labelBarcode!], `label-${e.labelBarcode}`)}
                      >
                        Print label
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
      <Text fz="xs" c="dimmed">Receipt times are recorded as {receivedAt ? formatDateTime(localInputToIso(receivedAt)) : 'the moment of each scan'}.</Text>
    </LabPageFrame>
  );
}
