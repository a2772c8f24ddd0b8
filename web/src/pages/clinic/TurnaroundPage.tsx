import { useState } from 'react';
import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ClinicMeasure, describeHours } from '@platform/domain';
import { clinicTurnaroundCsvHref, useClinicTurnaround, type TurnaroundRange } from '../../api/turnaround';
import type { MeAccount } from '../../api/auth';
import { PageLoader } from '../../components/PageLoader';
import { DurationTable, RangeFilter, RejectionTable, Section, WeeklyMedianChart } from '../../components/turnaround/TurnaroundParts';
import { CLINIC_BASE_PATH } from '../../portals';
import { ClinicPageFrame } from './ClinicPageFrame';
import { formatDateTime } from '../../format';

/** /provider-clinic/{accountId}/turnaround: the account's own samples: how long they take, which are late and where, its rejections. */
export function ClinicTurnaroundPage() {
  return (
    <ClinicPageFrame title="Turnaround">
      {(account) => <ClinicTurnaround account={account} />}
    </ClinicPageFrame>
  );
}

function ClinicTurnaround({ account }: { account: MeAccount }) {
  const [range, setRange] = useState<TurnaroundRange>({ from: '', to: '' });
  const { data, error, mutate } = useClinicTurnaround(account.id, range);
  const csv = (table: Parameters<typeof clinicTurnaroundCsvHref>[1]) => clinicTurnaroundCsvHref(account.id, table, range);
  return (
    <Stack gap="lg">
      <Text>Your samples only: shipped to received at the lab, received to resulted. A sample is overdue when it was received and has no result after its test&apos;s target.</Text>
      <RangeFilter range={range} shown={data} onChange={setRange} />
      {error && !data ? (
        <Group>
          <Text c="red.8">Turnaround could not be loaded.</Text>
          <Button variant="light" onClick={() => void mutate()}>Try again</Button>
        </Group>
      ) : !data ? (
        <PageLoader label="Loading turnaround" />
      ) : (
        <>
          <Section title="Turnaround by test" csvHref={csv('turnaround')}>
            <WeeklyMedianChart rows={data.turnaround} measure={ClinicMeasure.ReceivedToResulted} label="Median received to resulted per week" />
            <DurationTable rows={data.turnaround} label="Turnaround by test" />
          </Section>
          <Section title="Overdue samples" csvHref={csv('overdue')}>
            {data.overdue.length === 0 ? <Text>No sample is past its target.</Text> : (
              <Table.ScrollContainer minWidth={700}>
                <Table aria-label="Overdue samples" striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Barcode</Table.Th>
                      <Table.Th>Test</Table.Th>
                      <Table.Th>Where it is</Table.Th>
                      <Table.Th>Since</Table.Th>
                      <Table.Th>Received</Table.Th>
                      <Table.Th ta="right">Waiting / target</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.overdue.map((o) => (
                      <Table.Tr key={o.sampleId}>
                        <Table.Td>
                          <Anchor component={Link} to={`${CLINIC_BASE_PATH}/${account.id}/patient/${o.patientId}`}>{o.barcode}</Anchor>
                        </Table.Td>
                        <Table.Td>{o.testNames.join(', ')}</Table.Td>
                        <Table.Td>{o.status}</Table.Td>
                        <Table.Td>{formatDateTime(o.since)}</Table.Td>
                        <Table.Td>{formatDateTime(o.receivedAt)}</Table.Td>
                        <Table.Td ta="right">{describeHours(o.hoursSinceReceipt)} / {describeHours(o.targetHours)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Section>
          <Section title="Rejections by reason" csvHref={csv('rejections')}>
            <RejectionTable rows={data.rejections} />
          </Section>
        </>
      )}
    </Stack>
  );
}
