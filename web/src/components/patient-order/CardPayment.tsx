import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { PatientOrderKey, PaymentIntentAnswer } from '@platform/domain';
import { createPaymentIntent, isOrderCancelled } from '../../api/patient-portal';
import { FormError } from '../FormError';
import { usePatientText } from '../../i18n/patient-language';
import { CancelledOrderOf } from './CancelledOrder';
import { leavePageFor } from './leave-page';
import { completePath } from '../../portals';

// Stripe's scripts load only when a card is to be taken with real keys.
const StripeCardForm = lazy(() => import('./StripeCardForm'));

/**
 * Step 5 (and "try the card again"): the order's payment intent, amount computed by the server.
 * With the local Stripe stand-in the patient goes to its card page (checkoutUrl); with real keys
 * Stripe's Payment Element is shown here. Both come back to the complete page. An order the
 * clinic cancelled meanwhile is shown cancelled, with no card to try again.
 */
export function CardPayment({ orderKey }: { orderKey: PatientOrderKey }) {
  const [intent, setIntent] = useState<PaymentIntentAnswer | null>(null);
  const [error, setError] = useState<unknown>(undefined);
  const asked = useRef(false);
  const { t } = usePatientText();

  const ask = useCallback(() => {
    setError(undefined);
    createPaymentIntent(orderKey).then(
      (answer) => {
        if (answer.checkoutUrl) leavePageFor(answer.checkoutUrl);
        setIntent(answer);
      },
      (failure: unknown) => setError(failure),
    );
  }, [orderKey]);

  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    ask();
  }, [ask]);

  if (isOrderCancelled(error)) return <CancelledOrderOf orderKey={orderKey} />;
  if (error !== undefined) {
    return (
      <Stack gap="md">
        <FormError title={t('order.card.notStarted')} error={error} />
        <Button size="lg" fullWidth onClick={ask}>
          {t('common.tryAgain')}
        </Button>
      </Stack>
    );
  }
  if (!intent || intent.checkoutUrl) {
    return (
      <Center py="lg" role="status">
        <Stack align="center" gap="xs">
          <Loader />
          <Text>{intent ? t('order.card.redirecting') : t('order.card.preparing')}</Text>
        </Stack>
      </Center>
    );
  }
  return (
    <Suspense fallback={<Center py="lg" role="status" aria-label={t('order.card.loadingForm')}><Loader /></Center>}>
      <StripeCardForm intent={intent} returnUrl={`${window.location.origin}${completePath(orderKey.orderNumber)}`} />
    </Suspense>
  );
}
