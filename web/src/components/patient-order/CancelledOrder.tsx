import { Button, Stack, Text } from '@mantine/core';
import { PaymentStatus, type PatientOrderKey, type PatientOrderSummary } from '@platform/domain';
import { usePatientOrderSummary } from '../../api/patient-portal';
import { Notice } from '../Notice';
import { PageLoader } from '../PageLoader';
import { usePatientText } from '../../i18n/patient-language';
import { OrderSummary } from './OrderSummary';

/** What became of the money: refunded (or on its way back) when it was paid, else nothing was charged. */
function paymentLine(status: PatientOrderSummary['paymentStatus']): 'complete.refunded' | 'complete.refunding' | 'complete.nothingCharged' {
  if (status === PaymentStatus.Refunded) return 'complete.refunded';
  if (status === PaymentStatus.RefundPending || status === PaymentStatus.Paid) return 'complete.refunding';
  return 'complete.nothingCharged';
}

/**
 * An order the clinic cancelled, on every patient page that meets one (the complete page, the
 * order page resuming it, a payment step refused because the clinic cancelled it meanwhile): says
 * it is cancelled and what became of the payment, shows its summary, and never offers to pay it.
 * `onStartNew` offers a new order instead.
 */
export function CancelledOrder({ summary, onStartNew }: { summary: PatientOrderSummary; onStartNew?: () => void }) {
  const { t } = usePatientText();
  return (
    <Stack gap="md" data-testid="cancelled-order">
      <Notice color="orange" title={t('complete.cancelled')}>
        <Text>{t('complete.cancelledText')}</Text>
        <Text>{t(paymentLine(summary.paymentStatus))}</Text>
      </Notice>
      <OrderSummary summary={summary} />
      {onStartNew && (
        <Button size="lg" variant="default" fullWidth onClick={onStartNew}>
          {t('order.startNew')}
        </Button>
      )}
    </Stack>
  );
}

/** The cancelled order of a key, read afresh (a command was just refused: the clinic cancelled it). */
export function CancelledOrderOf({ orderKey }: { orderKey: PatientOrderKey }) {
  const { data, error } = usePatientOrderSummary(orderKey);
  const { t } = usePatientText();
  if (data) return <CancelledOrder summary={data} />;
  if (error) {
    return (
      <Notice color="orange" title={t('complete.cancelled')}>
        {t('complete.cancelledText')}
      </Notice>
    );
  }
  return <PageLoader label={t('order.loadingOrder')} />;
}
