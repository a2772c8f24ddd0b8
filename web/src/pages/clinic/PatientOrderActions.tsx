/**
 * A patient-ordered row's order: its stage and payment, and for the account's physicians the
 * sign-off (the four attestations of the clinic order form) or a cancellation with a reason
 * (a paid order is refunded to the patient's card; an unpaid one can no longer be paid). The
 * cancel dialog serves the list of unpaid orders too (UnpaidPatientOrders).
 */
import { useState } from 'react';
import { Badge, Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  AccountRole, attestationsFor, CANCEL_REASON_MAX_LENGTH, formatCalendarDate, isUnpaid, Portal, ORDER_ATTESTATIONS, PATIENT_ORDER_CANCEL_ROLES, PaymentStatus, PatientOrderStage, type AccountRole as AccountRoleT, type Attestations,
  type PatientListOrder, type PatientOrderStage as PatientOrderStageT,
} from '@platform/domain';
import { useRefreshClinic } from '../../api/clinic';
import { cancelPatientOrder, signOffPatientOrder, useSignOffContext } from '../../api/patient-portal';
import { FormError } from '../../components/FormError';
import { AttestationChecklist } from '../../components/AttestationChecklist';
import { useFormSubmit } from '../../forms/use-form-submit';
import { useFocusBack } from '../../shell/focus-back';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';

/** What a patient-ordered row says of its order (ResultListRow.patientOrder). */
export type PatientOrderInfo = PatientListOrder;

/** From the one AA colour map: white on each reads at 4.5:1 or more (green.9 did not, at 4.36:1). */
const STAGE_COLOR: Record<PatientOrderStageT, string> = {
  [PatientOrderStage.AwaitingPayment]: AA_COLORS.gray,
  [PatientOrderStage.AwaitingSignOff]: AA_COLORS.orange,
  [PatientOrderStage.SignedOff]: AA_COLORS.green,
  [PatientOrderStage.Cancelled]: AA_COLORS.red,
};

/** Whether the signed-in person's role in the account lets them cancel a patient's order. */
export const mayCancelPatientOrders = (role: AccountRoleT | null) => role !== null && PATIENT_ORDER_CANCEL_ROLES.includes(role);

const NONE_ATTESTED = Object.fromEntries(ORDER_ATTESTATIONS.map((a) => [a.key, false])) as Attestations;

export function PatientOrderActions({ accountId, role, order, patientName }: {
  accountId: number;
  role: AccountRoleT | null;
  order: PatientOrderInfo;
  patientName: string;
}) {
  const [open, setOpen] = useState<'sign-off' | 'cancel' | null>(null);
  // Closing a dialog takes the focus with it: back to the Sign off or Cancel button that opened it,
  // or (the order signed off or cancelled, the button gone) the page's heading.
  const focusBack = useFocusBack();
  const close = focusBack.after(() => setOpen(null));
  const physician = role === AccountRole.Physician;
  const mayCancel = mayCancelPatientOrders(role);
  const live = order.stage === PatientOrderStage.AwaitingSignOff || order.stage === PatientOrderStage.SignedOff;
  return (
    <Stack gap={4} align="flex-start">
      <Badge color={STAGE_COLOR[order.stage]} variant="filled" radius="sm">
        {order.stage}
      </Badge>
      <Text fz="xs">
        {order.paymentMethod ? `${order.paymentMethod} · ` : ''}
        {order.paymentStatus}
      </Text>
      <Group gap="xs" wrap="nowrap">
        {physician && order.stage === PatientOrderStage.AwaitingSignOff && (
          <Button size="compact-sm" onClick={(e) => { focusBack.remember(e.currentTarget); setOpen('sign-off'); }} aria-label={`Sign off order ${order.orderNumber}`}>
            Sign off
          </Button>
        )}
        {mayCancel && live && (
          <Button size="compact-sm" variant="default" onClick={(e) => { focusBack.remember(e.currentTarget); setOpen('cancel'); }} aria-label={`Cancel order ${order.orderNumber}`}>
            Cancel
          </Button>
        )}
      </Group>
      {open === 'sign-off' && <SignOffDialog accountId={accountId} order={order} patientName={patientName} onClose={close} />}
      {open === 'cancel' && <CancelDialog accountId={accountId} order={order} patientName={patientName} onClose={close} />}
    </Stack>
  );
}

export function SignOffDialog({ accountId, order, patientName, onClose }: { accountId: number; order: PatientOrderInfo; patientName: string; onClose: () => void }) {
  const refresh = useRefreshClinic(accountId);
  const context = useSignOffContext(accountId, order.orderId).data;
  // A patient the account already has with the same name and date of birth: the physician says whether it is the same person.
  const match = context?.match ?? null;
  // The attestations follow the order's payment (a patient paying themselves makes no insurance claim).
  const asked = attestationsFor(Portal.Patient, order.paymentMethod);
  const form = useForm({
    initialValues: { attestations: NONE_ATTESTED, samePerson: '' },
    validate: {
      attestations: (value: Attestations) => {
        const missing = asked.filter((a) => !value[a.key]);
        return missing.length ? `Confirm every attestation (${missing.map((a) => a.short).join(', ')} not yet confirmed)` : null;
      },
      samePerson: (value: string) => (match && !value ? 'Say whether they are the same person' : null),
    },
  });
  const sending = useFormSubmit(
    form,
    ({ attestations: confirmed, samePerson: same }) =>
      signOffPatientOrder(accountId, order.orderId, {
        attestations: Object.fromEntries(asked.map((a) => [a.key, confirmed[a.key]])) as Attestations,
        ...(match ? { patientMatch: { patientId: match.patientId, samePerson: same === 'yes' } } : {}),
      }),
    {
      onSuccess: () => {
        showSuccessToast(`Order ${order.orderNumber} signed off: the kit ships to the patient`);
        void refresh();
        onClose();
      },
    },
  );
  const { attestations } = form.getValues();
  return (
    <Modal opened onClose={onClose} title={`Sign off order ${order.orderNumber}`} size="lg">
      <form onSubmit={sending.onSubmit} noValidate aria-label="Sign off the order">
        <Stack gap="sm">
          <Text>
            {patientName} ordered this test through the Patient Portal. Signing it off makes you its ordering physician and releases the kit
            to ship to the patient.
          </Text>
          {context && (
            <details>
              <summary>The patient's eligibility answers</summary>
              <Stack gap={4} mt="xs" component="dl" aria-label="The patient's eligibility answers">
                {context.answers.map((a) => (
                  <div key={a.question}>
                    <Text component="dt" fz="sm" c="dimmed">{a.question}</Text>
                    <Text component="dd" fz="sm" fw={600} m={0}>{a.answer}</Text>
                  </div>
                ))}
              </Stack>
            </details>
          )}
          {match && (
            <Radio.Group
              label={`${match.name}, born ${formatCalendarDate(match.dateOfBirth)}, is already a patient of this account${match.email ? ` (${match.email})` : ''}. Is this the same person?`}
              withAsterisk
              {...form.getInputProps('samePerson')}
            >
              <Stack gap={6} mt="xs">
                <Radio value="yes" label="Yes: file this order under their record (the contact details on file are kept; results go there)" />
                <Radio value="no" label="No: a different person (the order keeps its own record)" />
              </Stack>
            </Radio.Group>
          )}
          <AttestationChecklist
            attestations={asked}
            value={attestations}
            onChange={(next) => {
              form.setFieldValue('attestations', next);
              if (form.errors.attestations) form.validateField('attestations');
            }}
            error={form.errors.attestations}
          />
          <FormError title="The order was not signed off" error={sending.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={sending.submitting}>
              Not now
            </Button>
            <Button type="submit" loading={sending.submitting}>
              Sign off the order
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function CancelDialog({ accountId, order, patientName, onClose }: { accountId: number; order: PatientOrderInfo; patientName: string; onClose: () => void }) {
  const refresh = useRefreshClinic(accountId);
  const form = useForm({
    initialValues: { reason: '' },
    validate: { reason: (v: string) => (v.trim() ? null : 'Give the reason for cancelling') },
  });
  const sending = useFormSubmit(form, (values) => cancelPatientOrder(accountId, order.orderId, { reason: values.reason.trim() }), {
    onSuccess: () => {
      showSuccessToast(`Order ${order.orderNumber} cancelled`);
      void refresh();
      onClose();
    },
  });
  const paid = order.paymentStatus === PaymentStatus.Paid;
  return (
    <Modal opened onClose={onClose} title={`Cancel order ${order.orderNumber}`}>
      <form onSubmit={sending.onSubmit} noValidate aria-label="Cancel the order">
        <Stack gap="sm">
          <Text>The order of {patientName} is cancelled before its kit ships, and the patient is told by email.</Text>
          {paid && <Text fw={600}>The patient paid by card: the payment is refunded.</Text>}
          {isUnpaid(order.paymentStatus) && <Text fw={600}>The patient has not paid: nothing is charged, and the order can no longer be paid.</Text>}
          <Textarea label="Reason" autosize minRows={3} maxLength={CANCEL_REASON_MAX_LENGTH} withAsterisk {...form.getInputProps('reason')} />
          <FormError title="The order was not cancelled" error={sending.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={sending.submitting}>
              Keep the order
            </Button>
            <Button type="submit" color="red" loading={sending.submitting}>
              Cancel the order
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
