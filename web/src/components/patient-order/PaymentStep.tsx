import { useEffect, useRef, useState } from 'react';
import { Button, Loader, Radio, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import useSWR from 'swr';
import {
  AID_CODE_PATTERN, normalizeAidCode, patientPriceCents, PaymentMethod, PaymentStatus, UNPAID_ORDER_EXPIRY_DAYS, type PatientOrderKey, type PatientOrderSummary, type SetPaymentBody,
} from '@platform/domain';
import { financialAssistanceExists, isOrderCancelled, setPayment, useInsurancePlans } from '../../api/patient-portal';
import { FormError } from '../FormError';
import { Notice } from '../Notice';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';
import { formatCents } from '../../format';
import { CancelledOrderOf } from './CancelledOrder';
import { OrderSummary } from './OrderSummary';

interface PaymentValues {
  method: string;
  insurancePlanId: string | null;
  insuranceMemberId: string;
  assistanceCode: string;
}

/** Whether the order still has a card payment to make. */
export const needsCard = (s: PatientOrderSummary) =>
  s.priceCents !== null && s.priceCents > 0 && (s.paymentStatus === PaymentStatus.AwaitingPayment || s.paymentStatus === PaymentStatus.PaymentFailed);

/**
 * Step 4: how the patient pays (insurance, self-pay at the catalogue price, or the financial
 * assistance price with the assistance code the program's approval email gave them), then the
 * summary with the price and, on the MiraKind path, the donation line; on to the card or, with
 * nothing to charge, to the end.
 */
export function PaymentStep({ orderKey, summary, onSummary, onCard, onFinish }: {
  orderKey: PatientOrderKey;
  summary: PatientOrderSummary;
  onSummary: (summary: PatientOrderSummary) => void;
  onCard: () => void;
  onFinish: () => void;
}) {
  const plans = useInsurancePlans();
  const { t } = usePatientText();
  const [editing, setEditing] = useState(summary.paymentMethod === null);
  // Choosing replaces the form with the summary: the summary takes the focus, the way on is the next Tab.
  const chosenView = useRef<HTMLDivElement>(null);
  const [focusChosen, setFocusChosen] = useState(false);
  useEffect(() => {
    if (!focusChosen || !chosenView.current) return;
    chosenView.current.focus();
    setFocusChosen(false);
  });
  const form = useForm<PaymentValues>({
    initialValues: { method: '', insurancePlanId: null, insuranceMemberId: '', assistanceCode: '' },
    validate: {
      method: (v) => (v ? null : t('order.payment.chooseHow')),
      insurancePlanId: (v, values) => (values.method === PaymentMethod.Insurance && !v ? t('order.payment.choosePlanError') : null),
      insuranceMemberId: (v, values) => (values.method === PaymentMethod.Insurance && !v.trim() ? t('order.payment.memberIdError') : null),
      assistanceCode: (v, values) => (values.method === PaymentMethod.FinancialAssistance && !AID_CODE_PATTERN.test(normalizeAidCode(v)) ? t('order.payment.assistanceCodeError') : null),
    },
  });
  const { method, assistanceCode } = form.getValues();
  // Checked once the whole code is typed: the answer is about this order's patient only.
  const code = normalizeAidCode(assistanceCode);
  const assistance = useSWR(
    method === PaymentMethod.FinancialAssistance && AID_CODE_PATTERN.test(code) ? ['financial-assistance-exists', orderKey.orderNumber, code] : null,
    ([, , typed]: string[]) => financialAssistanceExists({ ...orderKey, assistanceCode: typed }),
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
        ...(values.method === PaymentMethod.FinancialAssistance ? { assistanceCode: normalizeAidCode(values.assistanceCode) } : {}),
      };
      return setPayment(body);
    },
    {
      onSuccess: (chosen) => {
        setEditing(false);
        onSummary(chosen);
        setFocusChosen(true);
      },
    },
  );

  // The clinic cancelled the order meanwhile: said so, and no way to pay.
  if (isOrderCancelled(sending.error)) return <CancelledOrderOf orderKey={orderKey} />;

  // Chosen: the summary and the way on.
  if (!editing && summary.paymentMethod !== null) {
    return (
      <Stack gap="md" ref={chosenView} tabIndex={-1}>
        <OrderSummary summary={summary} />
        {needsCard(summary) ? (
          <>
            <Button size="lg" fullWidth onClick={onCard}>
              {t('order.payment.payByCard', { price: formatCents(summary.priceCents) })}
            </Button>
            <Button variant="subtle" onClick={() => setEditing(true)}>
              {t('order.payment.changeHow')}
            </Button>
            <Text fz="sm" c="dimmed" data-testid="unpaid-order-kept">
              {t('order.payment.keptFor', { days: UNPAID_ORDER_EXPIRY_DAYS })}
            </Text>
          </>
        ) : (
          <>
            <Text>
              {t('order.payment.nothingNow')} {summary.paymentMethod === PaymentMethod.Insurance ? t('order.payment.billInsurance') : ''}
            </Text>
            <Button size="lg" fullWidth onClick={onFinish}>
              {t('order.payment.place')}
            </Button>
          </>
        )}
      </Stack>
    );
  }

  const selfPay = patientPriceCents(summary.tests, { financialAssistance: false });
  const assisted = patientPriceCents(summary.tests, { financialAssistance: true });
  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label={t('order.payment.formLabel')}>
      <Stack gap="md">
        <Radio.Group label={t('order.payment.how')} withAsterisk size="md" {...form.getInputProps('method')}>
          <Stack gap="sm" mt="xs">
            <Radio value={PaymentMethod.Insurance} size="md" label={t('order.payment.insurance')} description={t('order.payment.insuranceHint')} />
            <Radio value={PaymentMethod.SelfPay} size="md" label={t('order.payment.selfPay', { price: formatCents(selfPay) })} description={t('order.payment.selfPayHint')} />
            <Radio
              value={PaymentMethod.FinancialAssistance}
              size="md"
              label={t('order.payment.assistance', { price: formatCents(assisted) })}
              description={t('order.payment.assistanceHint')}
            />
          </Stack>
        </Radio.Group>
        {method === PaymentMethod.Insurance && (
          <>
            <Select
              label={t('order.payment.plan')}
              placeholder={plans.isLoading ? t('common.loading') : t('order.payment.choosePlan')}
              data={(plans.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
              searchable
              allowDeselect={false}
              nothingFoundMessage={t('order.payment.noPlan')}
              // On a phone (mobile viewport) Mantine took the field for detached and hid the list.
              comboboxProps={{ hideDetached: false }}
              withAsterisk
              {...form.getInputProps('insurancePlanId')}
            />
            <TextInput label={t('order.payment.memberId')} description={t('order.payment.memberIdHint')} autoComplete="off" withAsterisk {...form.getInputProps('insuranceMemberId')} />
          </>
        )}
        {method === PaymentMethod.FinancialAssistance && (
          <TextInput
            label={t('order.payment.assistanceCode')}
            description={t('order.payment.assistanceCodeHint')}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            withAsterisk
            {...form.getInputProps('assistanceCode')}
          />
        )}
        {method === PaymentMethod.FinancialAssistance && assistance.isLoading && (
          <Text role="status" fz="sm">
            <Loader size="xs" mr="xs" />
            {t('order.payment.checkingAssistance')}
          </Text>
        )}
        {method === PaymentMethod.FinancialAssistance && assistance.data?.exists && (
          <Notice color="green">{t('order.payment.assistanceFound')}</Notice>
        )}
        {noAssistance && <Notice color="orange">{t('order.payment.noAssistance')}</Notice>}
        <FormError error={sending.error} />
        <Button type="submit" size="lg" fullWidth loading={sending.submitting} disabled={noAssistance}>
          {t('common.continue')}
        </Button>
      </Stack>
    </form>
  );
}
