import { useEffect, useState } from 'react';
import { Button, Card, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { en, PaymentStatus, PatientOrderStage, type PatientOrderKey, type PatientOrderSummary } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { closeOpenOrder, orderKeyOf, usePatientOrderSummary } from '../../api/patient-portal';
import { Notice } from '../../components/Notice';
import { PageLoader } from '../../components/PageLoader';
import { CancelledOrder } from '../../components/patient-order/CancelledOrder';
import { useLaterSteps } from '../../components/patient-order/lazy-steps';
import { OrderSummary } from '../../components/patient-order/OrderSummary';
import { PatientPortalFrame } from './PatientPortalFrame';
import { usePatientText } from '../../i18n/patient-language';

export const PAYMENT_FAILED_TITLE = en.complete.paymentFailedTitle;
export const RECEIPT_EMAILED = en.complete.receiptEmailed;

/**
 * /patient-portal/order/complete?order=<orderNumber>: where the order ends (and where the
 * payment provider sends the patient back). While the payment is being confirmed it asks again
 * every couple of seconds; a failed card can be tried again; once the order has moved on, its
 * number, what happens next and the receipt; an order the clinic cancelled says so and offers no payment.
 */
export function OrderCompletePage() {
  const [params] = useSearchParams();
  const orderNumber = params.get('order') ?? '';
  const [orderKey] = useState(() => (orderNumber ? orderKeyOf(orderNumber) : null));
  const { t } = usePatientText();
  return (
    <PatientPortalFrame kicker={t('order.kicker')} title={t('complete.title')}>
      {orderKey ? <OrderState orderKey={orderKey} /> : <OtherBrowser orderNumber={orderNumber} />}
    </PatientPortalFrame>
  );
}

function OtherBrowser({ orderNumber }: { orderNumber: string }) {
  const { t } = usePatientText();
  return (
    <Notice color="blue" title={orderNumber ? t('complete.orderTitle', { orderNumber }) : t('complete.title')}>
      {t('complete.otherBrowser')}
    </Notice>
  );
}

function OrderState({ orderKey }: { orderKey: PatientOrderKey }) {
  const { data, error } = usePatientOrderSummary(orderKey);
  const [retrying, setRetrying] = useState(false);
  const later = useLaterSteps(retrying);
  const { t } = usePatientText();
  const settled = data !== undefined && data.stage !== PatientOrderStage.AwaitingPayment;
  useEffect(() => {
    if (settled) closeOpenOrder(data.product);
  }, [settled, data?.product]);

  if (error && !data) {
    return (
      <Notice color="red" title={t('complete.loadFailed')}>
        {error instanceof ApiError && error.status === 404 ? t('complete.notFound') : error.message}
      </Notice>
    );
  }
  if (!data) return <PageLoader label={t('order.loadingOrder')} />;

  if (data.stage === PatientOrderStage.Cancelled) return <CancelledOrder summary={data} />;

  if (data.stage === PatientOrderStage.AwaitingPayment) {
    if (data.paymentStatus === PaymentStatus.PaymentFailed) {
      return (
        <Stack gap="md">
          <Notice color="red" title={t('complete.paymentFailedTitle')}>
            {t('complete.paymentFailedText')}
          </Notice>
          <OrderSummary summary={data} />
          {retrying ? (
            later ? <later.CardPayment orderKey={orderKey} /> : <PageLoader />
          ) : (
            <Button size="lg" fullWidth onClick={() => setRetrying(true)}>
              {t('complete.tryCardAgain')}
            </Button>
          )}
        </Stack>
      );
    }
    return (
      <Stack gap="md" role="status" aria-live="polite">
        <Card withBorder padding="lg">
          <Stack align="center" gap="sm">
            <Loader />
            <Text fz="lg" fw={600}>
              {t('complete.confirming')}
            </Text>
            <Text c="dimmed" ta="center">
              {t('complete.keepOpen')}
            </Text>
          </Stack>
        </Card>
        <OrderSummary summary={data} />
      </Stack>
    );
  }

  return <Placed summary={data} />;
}

function Placed({ summary }: { summary: PatientOrderSummary }) {
  const { t } = usePatientText();
  return (
    <Stack gap="lg">
      <Notice color="green" title={t('complete.placedTitle')}>
        <Text>
          {t('complete.orderNumberBefore')}
          <strong data-testid="order-number">{summary.orderNumber}</strong>
          {t('complete.orderNumberAfter')}
        </Text>
        <Text>{t('complete.receiptEmailed')}</Text>
      </Notice>
      <Stack gap="xs" component="section" aria-labelledby="next-steps">
        <Title order={2} fz={22} id="next-steps">
          {t('complete.nextTitle')}
        </Title>
        <List type="ordered" spacing="sm">
          <List.Item>{t('complete.next1', { account: summary.accountName })}</List.Item>
          <List.Item>{t('complete.next2')}</List.Item>
          <List.Item>{t('complete.next3')}</List.Item>
          <List.Item>{t('complete.next4')}</List.Item>
        </List>
        <Text c="dimmed">{t('complete.nextResult')}</Text>
      </Stack>
      <OrderSummary summary={summary} />
    </Stack>
  );
}
