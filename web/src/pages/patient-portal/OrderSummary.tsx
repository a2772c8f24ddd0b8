import { Card, Divider, Group, Stack, Text } from '@mantine/core';
import { MIRAKIND_DONATION_SHARE, PaymentMethod, type PatientOrderSummary } from '@platform/domain';
import { formatCents } from '../../format';

/** The MiraKind line: the part of the price that is a tax-deductible donation to the non-profit. */
export function donationLine(donationCents: number): string {
  return `Includes a tax-deductible donation of ${formatCents(donationCents)} (${Math.round(MIRAKIND_DONATION_SHARE * 100)}% of the price) to MiraKind, our non-profit partner.`;
}

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
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label="Order summary" data-testid="order-summary">
      <Stack gap="xs">
        <Line label="Order number">{summary.orderNumber}</Line>
        <Line label="Test">{summary.tests.join(' and ')}</Line>
        <Line label="Treating provider">{summary.accountName}</Line>
        {summary.paymentMethod && (
          <Line label="Payment">
            {summary.paymentMethod === PaymentMethod.Insurance && summary.insurancePlanName ? `Insurance: ${summary.insurancePlanName}` : summary.paymentMethod}
          </Line>
        )}
        {summary.priceCents !== null && (
          <>
            <Divider />
            <Line label={charged ? 'Price' : 'To pay now'} strong>
              {charged ? formatCents(summary.priceCents) : 'No charge'}
            </Line>
            {summary.mirakind && summary.donationCents !== null && summary.donationCents > 0 && (
              <Text fz="sm" data-testid="donation-line">
                {donationLine(summary.donationCents)}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
