import { useState } from 'react';
import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.layer.css';
import { describeHours, LabMeasure } from '@platform/domain';
import { labTurnaroundCsvHref, useLabTurnaround, type TurnaroundRange } from '../../api/turnaround';
import { PageLoader } from '../../components/PageLoader';
import { DurationTable, RangeFilter, RejectionTable, Section, WeeklyMedianChart } from '../../components/turnaround/TurnaroundParts';
import { LabPageFrame } from './LabPageFrame';

/** /lab_toolbox/turnaround: the lab's turnaround, past-target samples, throughput and rejections (every account). */
export function TurnaroundPage() {
  const [range, setRange] = useState<TurnaroundRange>({ from: '', to: '' });
  const { data, error, mutate } = useLabTurnaround(range);
  const csv = (table: Parameters<typeof labTurnaroundCsvHref>[0]) => labTurnaroundCsvHref(table, range);
  const targetOf = (testName: string) => data?.overdue.find((o) => o.testName === testName)?.targetHours ?? null;
  return (
    <LabPageFrame title="Turnaround" subtitle="Receipt to result and to release per test and week, samples past their target, throughput and rejections, from the samples' status events.">
      <Stack gap="lg">
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
              <WeeklyMedianChart rows={data.turnaround} measure={LabMeasure.ReceiptToResult} label="Median receipt to result per week" />
              <DurationTable rows={data.turnaround} label="Turnaround by test" target={targetOf} />
            </Section>
            <Section title="Samples past target" csvHref={csv('overdue')}>
              {data.overdue.length === 0 ? <Text c="dimmed">No test has a target or samples in this range.</Text> : (
                <Table.ScrollContainer minWidth={640}>
                  <Table aria-label="Samples past target" striped>
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Test</Table.Th>
                        <Table.Th ta="right">Target (receipt to result)</Table.Th>
                        <Table.Th ta="right">Open now</Table.Th>
                        <Table.Th ta="right">Open past target</Table.Th>
                        <Table.Th ta="right">Resulted in range</Table.Th>
                        <Table.Th ta="right">Resulted past target</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.overdue.map((o) => (
                        <Table.Tr key={o.testName}>
                          <Table.Td>{o.testName}</Table.Td>
                          <Table.Td ta="right">{o.targetHours === null ? 'None set' : describeHours(o.targetHours)}</Table.Td>
                          <Table.Td ta="right">{o.open}</Table.Td>
                          <Table.Td ta="right" fw={o.openPastTarget ? 700 : undefined}>{o.openPastTarget}</Table.Td>
                          <Table.Td ta="right">{o.resulted}</Table.Td>
                          <Table.Td ta="right">{o.resultedPastTarget}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
            </Section>
            <Section title="Throughput per day" csvHref={csv('throughput')}>
              <Text size="sm">
                In this range: {sum(data.throughput, 'received')} received, {sum(data.throughput, 'resulted')} resulted, {sum(data.throughput, 'rejected')} rejected.
              </Text>
              <figure style={{ margin: 0 }} aria-label="Samples received, resulted and rejected per day">
                <BarChart h={240} data={data.throughput} dataKey="day" withLegend
                  series={[{ name: 'received', label: 'Received', color: 'blue.6' }, { name: 'resulted', label: 'Resulted', color: 'teal.6' }, { name: 'rejected', label: 'Rejected', color: 'red.6' }]} />
              </figure>
            </Section>
            <Section title="Rejections by reason" csvHref={csv('rejections')}>
              <RejectionTable rows={data.rejections} />
            </Section>
          </>
        )}
      </Stack>
    </LabPageFrame>
  );
}

const sum = <K extends string>(rows: Record<K, number>[], key: K) => rows.reduce((n, r) => n + r[key], 0);
