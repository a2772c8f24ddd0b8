import { useState } from 'react';
import { Button, Loader, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import useSWR from 'swr';
import {
  patientPriceCents, PaymentMethod, PaymentStatus, type PatientOrderKey, type PatientOrderSummary, type SetPaymentBody,
} from '@platform/domain';
import { financialAssistanceExists, setPayment, useInsurancePlans } from '../../api/patient-portal';
import { FormError } from '../../components/FormError';
import { Notice } from '../../components/Notice';
import { useFormSubmit } from '../../forms/use-form-submit';
import { formatCents } from '../../format';
import type { PatientValues } from './DetailsStep';
import { OrderSummary } from './OrderSummary';

export const NO_ASSISTANCE_FOUND = 'We could not find an approved financial assistance record for you. Please choose another way to pay, or contact us to apply.';

interface PaymentValues {
  method: string;
  insurancePlanId: string | null;
  insuranceMemberId: string;
}

/** Whether the order still has a card payment to make. */
export const needsCard = (s: PatientOrderSummary) =>
  s.priceCents !== null && s.priceCents > 0 && (s.paymentStatus === PaymentStatus.AwaitingPayment || s.paymentStatus === PaymentStatus.PaymentFailed);

/**
 * Step 4: how the patient pays (insurance, self-pay at the catalogue price, or the financial
 * assistance price when an approved record exists), then the summary with the price and, on the
 * MiraKind path, the donation line; on to the card or, with nothing to charge, to the end.
 */
export function PaymentStep({ orderKey, summary, patient, onSummary, onCard, onFinish }: {
  orderKey: PatientOrderKey;
  summary: PatientOrderSummary;
  /** The patient's details from step 2 (null when the order was resumed in a new visit). */
  patient: PatientValues | null;
  onSummary: (summary: PatientOrderSummary) => void;
  onCard: () => void;
  onFinish: () => void;
}) {
  const plans = useInsurancePlans();
  const [editing, setEditing] = useState(summary.paymentMethod === null);
  const form = useForm<PaymentValues>({
    initialValues: { method: '', insurancePlanId: null, insuranceMemberId: '' },
    validate: {
      method: (v) => (v ? null : 'Please choose how you will pay'),
      insurancePlanId: (v, values) => (values.method === PaymentMethod.Insurance && !v ? 'Choose your insurance plan' : null),
      insuranceMemberId: (v, values) => (values.method === PaymentMethod.Insurance && !v.trim() ? 'Enter your member ID' : null),
    },
  });
  const { method } = form.getValues();
  const who = patient && { firstName: patient.firstName.trim(), lastName: patient.lastName.trim(), dateOfBirth: patient.dateOfBirth.trim() };
  const assistance = useSWR(
    method === PaymentMethod.FinancialAssistance && who ? ['financial-assistance-exists', who.firstName, who.lastName, who.dateOfBirth] : null,
    ([, firstName, lastName, dateOfBirth]: string[]) => financialAssistanceExists({ firstName, lastName, dateOfBirth }),
    { revalidateOnFocus: false, shouldRetryOnError: false, onError: () => undefined },
  );
  const noAssistance = method === PaymentMethod.FinancialAssistance && assistance.data?.exists === false;

  const sending = useFormSubmit(
    form,
    (values) => {
      const insurance = values.method === PaymentMethod.Insurance;
      const body: SetPaymentBody = {
        ...orderKey,
        method: values.method as PaymentMethod,
        insurancePlanId: insurance ? Number(values.insurancePlanId) : null,
        insuranceMemberId: insurance ? values.insuranceMemberId.trim() : null,
      };
      return setPayment(body);
    },
    {
      onSuccess: (chosen) => {
        setEditing(false);
        onSummary(chosen);
      },
    },
  );

  // Chosen: the summary and the way on.
  if (!editing && summary.paymentMethod !== null) {
    return (
      <Stack gap="md">
        <OrderSummary summary={summary} />
        {needsCard(summary) ? (
          <>
            <Button size="lg" fullWidth onClick={onCard}>
              Pay {formatCents(summary.priceCents)} by card
            </Button>
            <Button variant="subtle" onClick={() => setEditing(true)}>
              Change how I pay
            </Button>
          </>
        ) : (
          <>
            <Text>Nothing is charged now. {summary.paymentMethod === PaymentMethod.Insurance ? 'We bill your insurance plan.' : ''}</Text>
            <Button size="lg" fullWidth onClick={onFinish}>
              Place my order
            </Button>
          </>
        )}
      </Stack>
    );
  }

  const selfPay = patientPriceCents(summary.tests, { financialAssistance: false });
  const assisted = patientPriceCents(summary.tests, { financialAssistance: true });
  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label="Payment">
      <Stack gap="md">
        <Radio.Group label="How will you pay?" withAsterisk size="md" {...form.getInputProps('method')}>
          <Stack gap="sm" mt="xs">
            <Radio value={PaymentMethod.Insurance} size="md" label="Insurance" description="We bill your plan; nothing is charged now" />
            <Radio value={PaymentMethod.SelfPay} size="md" label={`Pay myself: ${formatCents(selfPay)}`} description="By card, on the next step" />
            <Radio
              value={PaymentMethod.FinancialAssistance}
              size="md"
              label={`Financial assistance: ${formatCents(assisted)}`}
              description="If you have been approved for the financial assistance program"
            />
          </Stack>
        </Radio.Group>
        {method === PaymentMethod.Insurance && (
          <>
            <Select
              label="Insurance plan"
              placeholder={plans.isLoading ? 'Loading…' : 'Choose your plan'}
              data={(plans.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
              searchable
              allowDeselect={false}
              nothingFoundMessage="No plan matches"
              // On a phone (mobile viewport) Mantine took the field for detached and hid the list.
              comboboxProps={{ hideDetached: false }}
              withAsterisk
              {...form.getInputProps('insurancePlanId')}
            />
            <TextInput label="Member ID" description="As printed on your insurance card" autoComplete="off" withAsterisk {...form.getInputProps('insuranceMemberId')} />
          </>
        )}
        {method === PaymentMethod.FinancialAssistance && assistance.isLoading && (
          <Text role="status" fz="sm">
            <Loader size="xs" mr="xs" />
            Checking your financial assistance…
          </Text>
        )}
        {method === PaymentMethod.FinancialAssistance && assistance.data?.exists && (
          <Notice color="green">We found your approved financial assistance.</Notice>
        )}
        {noAssistance && <Notice color="orange">{NO_ASSISTANCE_FOUND}</Notice>}
        <FormError error={sending.error} />
        <Button type="submit" size="lg" fullWidth loading={sending.submitting} disabled={noAssistance}>
          Continue
        </Button>
      </Stack>
    </form>
  );
}
