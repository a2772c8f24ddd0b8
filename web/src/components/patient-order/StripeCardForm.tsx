/**
 * Stripe's Payment Element (real Stripe keys): loaded only on the card step, in its own chunk.
 * confirmPayment takes the patient to the complete page (return_url) once the card is accepted.
 */
import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { PaymentIntentAnswer } from '@platform/domain';
import { FormError } from '../FormError';
import { formatCents } from '../../format';
import { usePatientText } from '../../i18n/patient-language';

const loaded = new Map<string, Promise<Stripe | null>>();

/** Stripe.js once per publishable key (loadStripe must not run on every render). */
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = loaded.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    loaded.set(publishableKey, stripe);
  }
  return stripe;
}

export default function StripeCardForm({ intent, returnUrl }: { intent: PaymentIntentAnswer; returnUrl: string }) {
  return (
    <Elements stripe={stripeFor(intent.publishableKey)} options={{ clientSecret: intent.clientSecret }}>
      <ConfirmForm amountCents={intent.amountCents} returnUrl={returnUrl} />
    </Elements>
  );
}

function ConfirmForm({ amountCents, returnUrl }: { amountCents: number; returnUrl: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const { t } = usePatientText();

  const pay = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!stripe || !elements) return;
    setBusy(true);
    setProblem(null);
    // On success Stripe leaves for return_url; an answer here is a refusal to show.
    const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: returnUrl } });
    setBusy(false);
    setProblem(error.message ?? t('order.card.didNotGoThrough'));
  };

  return (
    <form onSubmit={pay} aria-label={t('order.card.formLabel')}>
      <Stack gap="md">
        <PaymentElement />
        <FormError title={t('order.card.notCharged')} error={problem} />
        <Button type="submit" size="lg" fullWidth loading={busy} disabled={!stripe || !elements}>
          {t('order.card.pay', { price: formatCents(amountCents) })}
        </Button>
      </Stack>
    </form>
  );
}
