import { useEffect, useState } from 'react';
import { Button, Card, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { PaymentStatus, PatientOrderStage, type PatientOrderKey, type PatientOrderSummary } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { closeOpenOrder, orderKeyOf, usePatientOrderSummary } from '../../api/patient-portal';
import { Notice } from '../../components/Notice';
import { PageLoader } from '../../components/PageLoader';
import { CardPayment } from './CardPayment';
import { OrderSummary } from './OrderSummary';
import { PatientPortalFrame } from './PatientPortalFrame';

export const PAYMENT_FAILED_TITLE = 'Your card payment did not go through';
export const RECEIPT_EMAILED = 'A receipt has been emailed to you.';

/**
 * /patient-portal/order/complete?order=<orderNumber>: where the order ends (and where the
 * payment provider sends the patient back). While the payment is being confirmed it asks again
 * every couple of seconds; a failed card can be tried again; once the order has moved on, its
 * number, what happens next and the receipt.
 */
export function OrderCompletePage() {
  const [params] = useSearchParams();
  const orderNumber = params.get('order') ?? '';
  const [orderKey] = useState(() => (orderNumber ? orderKeyOf(orderNumber) : null));
  return (
    <PatientPortalFrame kicker="Patient Portal" title="Your order">
      {orderKey ? <OrderState orderKey={orderKey} /> : <OtherBrowser orderNumber={orderNumber} />}
    </PatientPortalFrame>
  );
}

function OtherBrowser({ orderNumber }: { orderNumber: string }) {
  return (
    <Notice color="blue" title={orderNumber ? `Order ${orderNumber}` : 'Your order'}>
      This order can only be shown in the browser window it was placed in. We email you a receipt and every update about your order.
    </Notice>
  );
}

function OrderState({ orderKey }: { orderKey: PatientOrderKey }) {
  const { data, error } = usePatientOrderSummary(orderKey);
  const [retrying, setRetrying] = useState(false);
  const settled = data !== undefined && data.stage !== PatientOrderStage.AwaitingPayment;
  useEffect(() => {
    if (settled) closeOpenOrder(data.product);
  }, [settled, data?.product]);

  if (error && !data) {
    return (
      <Notice color="red" title="We could not load your order">
        {error instanceof ApiError && error.status === 404 ? 'This order could not be found.' : error.message}
      </Notice>
    );
  }
  if (!data) return <PageLoader label="Loading your order" />;

  if (data.stage === PatientOrderStage.Cancelled) {
    const refund = data.paymentStatus === PaymentStatus.RefundPending || data.paymentStatus === PaymentStatus.Refunded;
    return (
      <Stack gap="md">
        <Notice color="orange" title="This order was cancelled">
          {refund ? 'Your payment is being refunded to your card.' : 'Nothing was charged for it.'}
        </Notice>
        <OrderSummary summary={data} />
      </Stack>
    );
  }

  if (data.stage === PatientOrderStage.AwaitingPayment) {
    if (data.paymentStatus === PaymentStatus.PaymentFailed) {
      return (
        <Stack gap="md">
          <Notice color="red" title={PAYMENT_FAILED_TITLE}>
            Your card was not charged. You can try again with the same or another card.
          </Notice>
          <OrderSummary summary={data} />
          {retrying ? (
            <CardPayment orderKey={orderKey} />
          ) : (
            <Button size="lg" fullWidth onClick={() => setRetrying(true)}>
              Try the card again
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
              Confirming your payment…
            </Text>
            <Text c="dimmed" ta="center">
              This usually takes a few seconds. Please keep this page open.
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
  return (
    <Stack gap="lg">
      <Notice color="green" title="Thank you: your order is placed">
        <Text>
          Your order number is <strong data-testid="order-number">{summary.orderNumber}</strong>.
        </Text>
        <Text>{RECEIPT_EMAILED}</Text>
      </Notice>
      <Stack gap="xs" component="section" aria-labelledby="next-steps">
        <Title order={2} fz={22} id="next-steps">
          What happens next
        </Title>
        <List type="ordered" spacing="sm">
          <List.Item>A physician at {summary.accountName} reviews your order and signs it off.</List.Item>
          <List.Item>We ship a test kit to your address.</List.Item>
          <List.Item>Swab the inside of your cheek as the kit&apos;s instructions show.</List.Item>
          <List.Item>Send the kit back to the lab in the prepaid return package.</List.Item>
        </List>
        <Text c="dimmed">Your result goes to your physician, and we email you when it is ready.</Text>
      </Stack>
      <OrderSummary summary={summary} />
    </Stack>
  );
}
