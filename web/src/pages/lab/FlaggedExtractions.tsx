import { useState } from 'react';
import { Badge, Button, Group, Modal, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import {
  EXTRACTION_OUTCOME_LABELS, EXTRACTION_REJECTION_REASON, formatCount, reextractionIdOf, type ExtractionOutcome, type FlaggedExtractionRow,
} from '@platform/domain';
import { decideExtraction, useDnaExtractions, type ExtractionView } from '../../api/dna-extractions';
import { useRefreshLab } from '../../api/lab';
import { commandError } from '../../forms/server-errors';
import { FormError } from '../../components/FormError';
import { Notice } from '../../components/Notice';
import { Pager } from '../../components/Pager';
import { useCommand } from '../../forms/use-form-submit';
import { showSuccessToast } from '../../shell/success-toast';
import { useFocusBack } from '../../shell/focus-back';
import { AA_COLORS, statusColor } from '../../status-colors';

const Measures = ({ e }: { e: { concentration: number; a260280: number; volume: number; plate: string; well: string } }) => (
  <>
    <Table.Td fz="sm">{e.concentration} ng/µL</Table.Td>
    <Table.Td fz="sm">{e.a260280}</Table.Td>
    <Table.Td fz="sm">{e.volume} µL</Table.Td>
    <Table.Td fz="sm">{e.plate} · {e.well}</Table.Td>
  </>
);

const MeasureHeads = () => (
  <>
    <Table.Th>Concentration</Table.Th>
    <Table.Th>A260/280</Table.Th>
    <Table.Th>Volume</Table.Th>
    <Table.Th>Plate · well</Table.Th>
  </>
);

const Why = ({ reasons }: { reasons: readonly string[] }) => (
  <Table.Td fz="sm">
    {reasons.map((r) => <Text key={r} fz="sm" c={AA_COLORS.orange}>{r}</Text>)}
  </Table.Td>
);

/** What the dry run flagged: imported with the rest on commit, then decided one by one. */
export function FlaggedDryRunTable({ rows, total }: { rows: readonly FlaggedExtractionRow[]; total: number }) {
  return (
    <Stack gap="xs">
      <Title order={3} fz="lg">Outside the acceptance range ({formatCount(total)})</Title>
      <Text fz="sm">
        These rows are not errors: they are imported with the rest when you commit, and none of them can be released. After the commit,
        choose for each sample: send it to re-extraction, or reject it ({EXTRACTION_REJECTION_REASON}).
      </Text>
      <ScrollArea.Autosize mah={420}>
        <Table striped withTableBorder aria-label="Flagged rows of the check" miw={760}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Row</Table.Th>
              <Table.Th>Sample</Table.Th>
              <MeasureHeads />
              <Table.Th>Why</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.row}>
                <Table.Td>{r.row}</Table.Td>
                <Table.Td ff="monospace" fz="sm">{r.sampleId}</Table.Td>
                <Measures e={r} />
                <Why reasons={r.reasons} />
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}

function Decided({ e }: { e: ExtractionView }) {
  if (e.outcome === 're-extraction') {
    return (
      <Stack gap={2} align="flex-start">
        <Badge color={AA_COLORS.blue}>Re-extraction</Badge>
        <Text fz="xs" ff="monospace">{e.reextractionId}</Text>
        {e.decidedBy && <Text fz="xs" c="dimmed">by {e.decidedBy.name}</Text>}
      </Stack>
    );
  }
  return (
    <Stack gap={2} align="flex-start">
      <Badge color={AA_COLORS.red}>Rejected</Badge>
      <Text fz="xs">Quantity not sufficient</Text>
      {e.decidedBy && <Text fz="xs" c="dimmed">by {e.decidedBy.name}</Text>}
    </Stack>
  );
}

interface Pending { extraction: ExtractionView; outcome: ExtractionOutcome }

function ConfirmDecision({ pending, onClose, onDone }: { pending: Pending; onClose: () => void; onDone: (message: string) => void }) {
  const { extraction: e, outcome } = pending;
  const deciding = useCommand(`dna-extraction:decide:${e.id}`, () => decideExtraction(e.id, outcome));
  const confirm = async () => {
    const answer = await deciding.trigger().catch(() => undefined); // the error shows in the dialog
    if (answer) onDone(answer.message);
  };
  const reextraction = outcome === 're-extraction';
  return (
    <Modal opened onClose={onClose} title={reextraction ? `Send ${e.label} to re-extraction` : `Reject sample ${e.barcode}`}>
      <Stack gap="md">
        <Text>
          {reextraction
            ? `The sample stays In Testing; its next extraction goes by ${reextractionIdOf(e.barcode)} in the extraction file. A sample is re-extracted once.`
            : `The sample moves to Rejected (${EXTRACTION_REJECTION_REASON}) and its results waiting for review are withdrawn. This cannot be undone.`}
        </Text>
        <FormError title="Not done" error={deciding.error === undefined ? undefined : commandError(deciding.error)} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={deciding.isMutating}>Cancel</Button>
          <Button color={reextraction ? undefined : AA_COLORS.red} onClick={() => void confirm()} loading={deciding.isMutating}>
            {EXTRACTION_OUTCOME_LABELS[outcome]}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * Flagged extractions with the two decisions: send the sample to re-extraction, or reject it
 * (quantity not sufficient). A decision the server would refuse is shown disabled, with why.
 */
export function FlaggedExtractionsTable({ rows, onDecided }: { rows: readonly ExtractionView[]; onDecided: (message: string) => void }) {
  const [pending, setPending] = useState<Pending | null>(null);
  // Closing the dialog takes the focus with it: back to the row's Re-extract or Reject button, or
  // (the sample decided, its buttons gone) the page's heading.
  const focusBack = useFocusBack();
  const close = focusBack.after(() => setPending(null));
  return (
    <>
      <ScrollArea>
        <Table striped withTableBorder aria-label="Flagged DNA extractions" miw={900}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Sample</Table.Th>
              <MeasureHeads />
              <Table.Th>Why</Table.Th>
              <Table.Th>Decision</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((e) => {
              const refused = (Object.entries(e.refusals) as [ExtractionOutcome, string | null][]).filter(([, why]) => why !== null);
              return (
                <Table.Tr key={e.id}>
                  <Table.Td ff="monospace" fz="sm">
                    {e.label}
                    <br />
                    <Badge size="xs" color={statusColor(e.sampleStatus)}>{e.sampleStatus}</Badge>
                    <Text fz="xs" c="dimmed">row {e.fileRow}</Text>
                  </Table.Td>
                  <Measures e={e} />
                  <Why reasons={e.flags} />
                  <Table.Td>
                    {e.outcome ? <Decided e={e} /> : (
                      <Stack gap={4}>
                        <Group gap="xs" wrap="nowrap">
                          <Button size="compact-sm" variant="light" disabled={e.refusals['re-extraction'] !== null}
                            aria-label={`Re-extract ${e.label}`} onClick={(event) => { focusBack.remember(event.currentTarget); setPending({ extraction: e, outcome: 're-extraction' }); }}>
                            Re-extract
                          </Button>
                          <Button size="compact-sm" variant="outline" color={AA_COLORS.red} disabled={e.refusals['reject-sample'] !== null}
                            aria-label={`Reject ${e.label}: quantity not sufficient`} onClick={(event) => { focusBack.remember(event.currentTarget); setPending({ extraction: e, outcome: 'reject-sample' }); }}>
                            Reject
                          </Button>
                        </Group>
                        {refused.map(([outcome, why]) => <Text key={outcome} fz="xs" c="dimmed">{why}</Text>)}
                      </Stack>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {pending && (
        <ConfirmDecision
          pending={pending}
          onClose={close}
          onDone={(message) => { close(); onDecided(message); }}
        />
      )}
    </>
  );
}

/**
 * The flagged extractions of one committed import (the import page), or every flagged extraction
 * still waiting for a decision (the review page), with their decisions. Nothing shows when there
 * are none and `hideWhenEmpty` is set.
 */
export function FlaggedExtractionsPanel({ jobId, barcode, awaitingDecision, title, hideWhenEmpty }: {
  jobId?: number; barcode?: string; awaitingDecision?: boolean; title: string; hideWhenEmpty?: boolean;
}) {
  const [page, setPage] = useState(1);
  const [message, setMessage] = useState<string | null>(null);
  // Dismissing the message takes its close button away (and with no flagged extraction left, the panel): the page's heading takes the focus.
  const focusBack = useFocusBack();
  const refresh = useRefreshLab();
  const pageSize = 50;
  const { data } = useDnaExtractions({ page, pageSize, jobId, barcode, flagged: true, awaitingDecision });
  const rows = data?.rows ?? [];
  if (hideWhenEmpty && !message && (data?.total ?? 0) === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={3} fz="lg">{title}{data ? ` (${formatCount(data.total)})` : ''}</Title>
      {message && <Notice color="green" onClose={focusBack.after(() => setMessage(null))}>{message}</Notice>}
      {data && data.total === 0 ? (
        <Text fz="sm" c="dimmed">No flagged extraction {awaitingDecision ? 'waits for a decision' : 'in this import'}.</Text>
      ) : (
        <FlaggedExtractionsTable rows={rows} onDecided={(text) => { setMessage(text); showSuccessToast(text); refresh(); }} />
      )}
      {(data?.total ?? 0) > pageSize && <Pager page={page} pageSize={pageSize} total={data?.total ?? 0} onPage={setPage} noun="flagged extractions" />}
    </Stack>
  );
}
