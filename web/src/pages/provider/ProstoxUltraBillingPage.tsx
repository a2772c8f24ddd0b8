import type { ReactNode } from 'react';
import { Anchor, Card, Group, List, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import {
  catalogueEntry,
  MIRAKIND_DONATION_SHARE,
  mirakindDonationCents,
  ORDER_ATTESTATIONS,
  PROSTOX_BOTH,
  TestName,
  type AttestationKey,
} from '@platform/domain';
import { DocumentIcon } from '../../components/icons';
import { documentHref, STATIC_DOCUMENTS } from '../../documents';
import { patientOrderPath, PROVIDER_INFO_PATHS } from '../../portals';
import { InfoPageFrame } from './InfoPageFrame';

const ULTRA = TestName.ProstoxUltra;
const CFRT = TestName.ProstoxCfrt;
const ultra = catalogueEntry(ULTRA);
const assistanceProgram = STATIC_DOCUMENTS.find((doc) => doc.id === 'financial-assistance')!;

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/** A catalogue price (cents) in US dollars: $500.00. */
const formatUsd = (cents: number | null) => (cents === null ? '—' : usd.format(cents / 100));

const PRICE_ROWS = [
  { order: ULTRA, selfPayCents: ultra.selfPayCents, assistanceCents: ultra.assistanceCents },
  { order: `${ULTRA} and ${CFRT} together`, selfPayCents: PROSTOX_BOTH.selfPayCents, assistanceCents: PROSTOX_BOTH.assistanceCents },
];

const attestation = (key: AttestationKey) => ORDER_ATTESTATIONS.find((a) => a.key === key)!.label;

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Title order={2} fz="h3" id={id}>
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

/** /provider/prostox-ultra-billing: how PROSTOX ultra is paid for, with the catalogue's prices (public, no sign-in). */
export function ProstoxUltraBillingPage() {
  const donationPercent = Math.round(MIRAKIND_DONATION_SHARE * 100);
  return (
    <InfoPageFrame
      title={`${ULTRA} billing and prices`}
      subtitle="Insurance billed by your practice, or self-pay by the patient with financial assistance for those who qualify"
      here={PROVIDER_INFO_PATHS.prostoxUltraBilling}
    >
      <Section id="billing-prices" title="Prices">
        <Table withTableBorder verticalSpacing="sm" data-testid="price-table">
          <Table.Caption>Prices for patients who pay themselves, in US dollars</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Order</Table.Th>
              <Table.Th scope="col">Self-pay price</Table.Th>
              <Table.Th scope="col">With financial assistance</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {PRICE_ROWS.map((row) => (
              <Table.Tr key={row.order}>
                <Table.Th scope="row">{row.order}</Table.Th>
                <Table.Td data-testid="self-pay-price">{formatUsd(row.selfPayCents)}</Table.Td>
                <Table.Td data-testid="assistance-price">{formatUsd(row.assistanceCents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text fz="sm">
          The price covers the test and the report; the collection kit and its prepaid return mailer are included. For orders
          through the MiraKind program, {donationPercent}% of the price is a tax-deductible donation to the non-profit (
          {formatUsd(mirakindDonationCents(ultra.selfPayCents ?? 0))} of {formatUsd(ultra.selfPayCents)}); the patient&apos;s
          receipt shows the amount.
        </Text>
      </Section>

      <Section id="billing-insurance" title="Insurance: your practice submits the claim">
        <Text>
          When you order {ULTRA} in the Clinical Portal, your practice submits the claim for reimbursement to the
          patient&apos;s insurer. The order form asks you to confirm this with two of its attestations:
        </Text>
        <List spacing={4}>
          <List.Item>
            <em>{attestation('reimbursementClaim')}</em>
          </List.Item>
          <List.Item>
            <em>{attestation('supportingDocumentation')}</em>
          </List.Item>
        </List>
        <Text>Before collecting the sample:</Text>
        <List spacing={4}>
          <List.Item>check the patient&apos;s coverage and whether their plan needs prior authorization;</List.Item>
          <List.Item>
            record the indication in the patient&apos;s chart: prostate cancer, with SBRT under consideration, and how the
            result will inform the choice of treatment.
          </List.Item>
        </List>
        <Text>
          If the patient has no insurance, or their plan does not cover the test, the patient can order it through the Patient
          Portal and pay the self-pay price, or the reduced price if they qualify for financial assistance.
        </Text>
      </Section>

      <Section id="billing-assistance" title="Self-pay and financial assistance">
        <Text>
          Patients can order {ULTRA} themselves through the{' '}
          <Anchor component={Link} to={patientOrderPath('prostox')}>
            Patient Portal
          </Anchor>{' '}
          on your recommendation, and pay by card when they complete the order. The financial assistance program, run with our non-profit partner MiraKind, lowers the price to{' '}
          {formatUsd(ultra.assistanceCents)} for patients in the United States who have no insurance, whose insurance does not
          cover the test, or for whom the self-pay price would be a hardship. Eligibility depends on household size and
          income.
        </Text>
        <Text>
          Once the lab has approved a patient for the program, they choose financial assistance as the way to pay when they
          order, and pay the reduced price by card. Applying is confidential and does not affect their care.
        </Text>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" size="lg" aria-hidden="true">
            <DocumentIcon size={20} />
          </ThemeIcon>
          <div>
            <Anchor href={documentHref(assistanceProgram)} target="_blank" rel="noopener" fw={600}>
              {assistanceProgram.title} <Text span c="dimmed" fz="xs">(PDF)</Text>
            </Anchor>
            <Text fz="sm" c="dimmed">
              {assistanceProgram.description}
            </Text>
          </div>
        </Group>
      </Section>

      <Section id="billing-questions" title="Questions">
        <Text>
          Billing questions go to the PROSTOX support team, at the support address printed on the kit. Quote the 14-digit
          sample barcode rather than the patient&apos;s name. Questions about the test itself:{' '}
          <Anchor component={Link} to={PROVIDER_INFO_PATHS.prostoxFaq}>
            PROSTOX questions and answers
          </Anchor>
          .
        </Text>
      </Section>
    </InfoPageFrame>
  );
}
