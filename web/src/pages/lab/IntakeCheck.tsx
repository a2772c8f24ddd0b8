import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Checkbox, Group, Paper, Radio, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  CONDITION_RULES, formatCalendarDate, receiveConditionProblem, REJECTION_REASONS, SPECIMEN_CONDITION_LABELS, SPECIMEN_CONDITIONS, type IntakeKit, type IntakeOutcome, type RejectionReason, type SpecimenCondition,
} from '@platform/domain';
import { receiveKit, rejectKit } from '../../api/lab';
import { commandError, defaultFieldOf, serverFieldErrors } from '../../forms/server-errors';
import { formatDateTime, isoToLocalInput, localInputToIso, nowLocalInput } from '../../format';
import { AA_COLORS } from '../../status-colors';

export interface CheckValues {
  condition: SpecimenCondition | null;
  conditionNote: string;
  collectedAt: string;
  identityConfirmed: boolean;
  reason: RejectionReason | null;
}

const FIELDS = ['condition', 'conditionNote', 'collectedAt', 'identityConfirmed', 'reason'] as const;

/** The requisition's patient as the tube should read: "John Carter, born 03/14/1956", or a research participant's study id. */
export function requisitionIdentity(kit: IntakeKit): string | null {
  const r = kit.requisition;
  if (!r) return null;
  if (r.firstName || r.lastName) return `${[r.firstName, r.lastName].filter(Boolean).join(' ')}, born ${formatCalendarDate(r.dateOfBirth)}`;
  return r.studyId ? `Study id ${r.studyId}` : null;
}

/**
 * One scanned kit's check before it is received (issue 30, item 2; docs/intake.md): the specimen's
 * condition, its collection time (from the order when the clinic gave it), and for a kit with a
 * requisition the confirmation that the tube's name and date of birth match it, the requisition's
 * shown beside. A condition the lab cannot test offers the rejection with its reason; Receive says
 * what is missing on the field it is about. The lab's own screen: the full name is shown.
 */
export function IntakeCheck({ kit, receivedAt, onDone, onCancel }: {
  kit: IntakeKit;
  /** The receipt time typed on the page ('' for now). */
  receivedAt: string;
  onDone: (outcome: IntakeOutcome, action: 'received' | 'rejected') => void;
  onCancel: () => void;
}) {
  const form = useForm<CheckValues>({
    initialValues: { condition: null, conditionNote: '', collectedAt: isoToLocalInput(kit.collectedAt), identityConfirmed: false, reason: null },
  });
  const values = form.getValues();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const firstCondition = useRef<HTMLInputElement>(null);
  // The check takes the focus once the kit is found: the condition comes first.
  useEffect(() => firstCondition.current?.focus(), [kit.barcode]);

  const identity = requisitionIdentity(kit);
  const identityLabel = kit.requisition?.firstName || kit.requisition?.lastName
    ? 'The name and date of birth on the tube match the requisition'
    : 'The study id on the tube matches the requisition';
  const rule = values.condition ? CONDITION_RULES[values.condition] : null;

  const chooseCondition = (value: string) => {
    const condition = value as SpecimenCondition;
    form.setFieldValue('condition', condition);
    // The rejection this condition calls for, offered at once (the reason can still be changed).
    form.setFieldValue('reason', CONDITION_RULES[condition].rejectionReason);
    form.clearFieldError('condition');
  };

  const send = async (action: 'received' | 'rejected') => {
    const v = form.getValues();
    const errors: Partial<Record<(typeof FIELDS)[number], string>> = {};
    if (!v.condition) errors.condition = 'Choose the specimen’s condition';
    if (action === 'received') {
      const problem = v.condition ? receiveConditionProblem(v.condition, v.conditionNote) : null;
      if (problem) errors[CONDITION_RULES[v.condition!].receive === 'reject' ? 'condition' : 'conditionNote'] = problem;
      if (!v.collectedAt) errors.collectedAt = 'Type the collection date and time written on the tube';
      if (identity && !v.identityConfirmed) errors.identityConfirmed = 'Confirm the name and date of birth on the tube match the requisition, or reject the kit';
    } else if (!v.reason) errors.reason = 'Choose the rejection reason';
    form.setErrors(errors);
    if (Object.keys(errors).length) return;
    setBusy(true);
    setFailure(null);
    const check = { barcode: kit.barcode, condition: v.condition!, ...(v.conditionNote.trim() ? { conditionNote: v.conditionNote.trim() } : {}), collectedAt: localInputToIso(v.collectedAt) };
    try {
      const outcome = action === 'received'
        ? await receiveKit({ ...check, receivedAt: localInputToIso(receivedAt), ...(identity ? { identityConfirmed: v.identityConfirmed } : {}) })
        : await rejectKit({ ...check, reason: v.reason! });
      onDone(outcome, action);
    } catch (error) {
      const { errors: placed, allPlaced } = serverFieldErrors(error, defaultFieldOf(FIELDS));
      form.setErrors(placed);
      if (!allPlaced) setFailure(commandError(error));
    } finally {
      setBusy(false);
    }
  };

  const mustReject = rule?.receive === 'reject';
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="intake-check-title">
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg" id="intake-check-title">
            Check kit <Text span ff="monospace" inherit>{kit.barcode}</Text>
          </Title>
          <Text fz="sm" c="dimmed">
            {[kit.tests.join(', '), kit.account ?? 'Lab ordered', kit.sampleType, `ordered ${formatDateTime(kit.orderedAt)}`].filter(Boolean).join(' · ')}
          </Text>
        </div>
        <Radio.Group
          label="Specimen condition"
          value={values.condition}
          onChange={chooseCondition}
          error={form.errors.condition}
          withAsterisk
        >
          <Group gap="md" mt="xs">
            {SPECIMEN_CONDITIONS.map((c, i) => (
              <Radio key={c} value={c} label={SPECIMEN_CONDITION_LABELS[c]} ref={i === 0 ? firstCondition : undefined} />
            ))}
          </Group>
        </Radio.Group>
        {rule && values.condition !== 'acceptable' && (
          <Text fz="sm" c={mustReject ? 'red.9' : 'orange.9'} role="status">{rule.why}</Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            type="datetime-local"
            label="Collected at"
            description={kit.collectedAt ? 'From the order: correct it if the tube says otherwise' : 'Not on the order: type the date and time written on the tube'}
            value={values.collectedAt}
            max={nowLocalInput()}
            onChange={(e) => { form.setFieldValue('collectedAt', e.currentTarget.value); form.clearFieldError('collectedAt'); }}
            error={form.errors.collectedAt}
            withAsterisk
          />
          {values.condition && values.condition !== 'acceptable' && (
            <Textarea
              label="Condition note"
              description={rule?.receive === 'receive with a note' ? 'Required to receive it: why it is tested anyway' : 'What was found (optional)'}
              value={values.conditionNote}
              onChange={(e) => { form.setFieldValue('conditionNote', e.currentTarget.value); form.clearFieldError('conditionNote'); }}
              error={form.errors.conditionNote}
              autosize
              minRows={1}
              maxLength={500}
            />
          )}
        </SimpleGrid>
        {identity && (
          <Paper withBorder p="sm" bg="gray.0">
            <Group align="flex-start" gap="lg" wrap="wrap">
              <div>
                <Text fz="xs" c="dimmed">Requisition</Text>
                <Text fw={700} data-testid="requisition-identity">{identity}</Text>
              </div>
              <Checkbox
                label={identityLabel}
                checked={values.identityConfirmed}
                onChange={(e) => { form.setFieldValue('identityConfirmed', e.currentTarget.checked); form.clearFieldError('identityConfirmed'); }}
                error={form.errors.identityConfirmed}
                style={{ flex: 1, minWidth: 240 }}
              />
            </Group>
          </Paper>
        )}
        {failure && <Alert color="red" title="Not done" role="alert">{failure}</Alert>}
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
          <Group gap="sm" align="flex-end">
            <Button size="md" loading={busy} onClick={() => void send('received')} disabled={mustReject}>
              Receive
            </Button>
            <Button variant="subtle" onClick={onCancel} disabled={busy}>Cancel</Button>
          </Group>
          <Group gap="sm" align="flex-end">
            <Select
              label="Rejection reason"
              placeholder="Choose a reason"
              data={REJECTION_REASONS}
              value={values.reason}
              onChange={(v) => { form.setFieldValue('reason', v as RejectionReason | null); form.clearFieldError('reason'); }}
              error={form.errors.reason}
              w={{ base: '100%', sm: 300 }}
            />
            <Button size="md" color={AA_COLORS.orange} variant={mustReject ? 'filled' : 'outline'} loading={busy} onClick={() => void send('rejected')}>
              Reject
            </Button>
          </Group>
        </Group>
        {mustReject && <Text fz="sm">Receive is off: a {SPECIMEN_CONDITION_LABELS[values.condition!].toLowerCase()} specimen is rejected.</Text>}
      </Stack>
    </Paper>
  );
}
