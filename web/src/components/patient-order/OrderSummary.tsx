import { Card, Divider, Group, Stack, Text } from '@mantine/core';
import { MIRAKIND_DONATION_SHARE, PaymentMethod, type PatientOrderSummary } from '@platform/domain';
import { formatCents } from '../../format';
import { usePatientText } from '../../i18n/patient-language';

/** The MiraKind line's values: the part of the price that is a tax-deductible donation to the non-profit. */
const donationValues = (donationCents: number) => ({ amount: formatCents(donationCents), share: String(Math.round(MIRAKIND_DONATION_SHARE * 100)) });

function Line({ label, children, strong }: { label: string; children: React.ReactNode; strong?: boolean }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Text c="dimmed">{label}</Text>
      <Text fw={strong ? 700 : 500} ta="right" fz={strong ? 'lg' : undefined}>
        {children}
      </Text>
    </Group>
  );
}

/** What is ordered and what it costs (never a name or a date of birth): the payment step's summary and the complete page's. */
export function OrderSummary({ summary }: { summary: PatientOrderSummary }) {
  const charged = summary.priceCents !== null && summary.priceCents > 0;
  const { t } = usePatientText();
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={t('order.summary.label')} data-testid="order-summary">
      <Stack gap="xs">
        <Line label={t('order.summary.orderNumber')}>{summary.orderNumber}</Line>
        <Line label={t('order.summary.test')}>{summary.tests.join(t('email.receipt.testsJoin'))}</Line>
        <Line label={t('order.summary.treatingProvider')}>{summary.accountName}</Line>
        {summary.paymentMethod && (
          <Line label={t('order.summary.payment')}>
            {summary.paymentMethod === PaymentMethod.Insurance && summary.insurancePlanName
              ? t('order.summary.insuranceWith', { plan: summary.insurancePlanName })
              : t(`order.summary.methods.${summary.paymentMethod}`)}
          </Line>
        )}
        {summary.priceCents !== null && (
          <>
            <Divider />
            <Line label={charged ? t('order.summary.price') : t('order.summary.toPayNow')} strong>
              {charged ? formatCents(summary.priceCents) : t('order.summary.noCharge')}
            </Line>
            {summary.mirakind && summary.donationCents !== null && summary.donationCents > 0 && (
              <Text fz="sm" data-testid="donation-line">
                {t('order.summary.donation', donationValues(summary.donationCents))}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
