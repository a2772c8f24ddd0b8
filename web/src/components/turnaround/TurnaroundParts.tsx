/**
 * What the lab's turnaround dashboard and a clinic's turnaround page share: the range filter, the
 * durations table (median and 90th percentile per test), the rejections table, the weekly chart,
 * and a table's CSV link. docs/turnaround.md says what each figure means.
 */
import { useState, type ReactNode } from 'react';
import { Anchor, Button, Card, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { LineChart } from '@mantine/charts';
import '@mantine/charts/styles.layer.css';
import { describeHours, type RejectionCount } from '@platform/domain';
import type { TurnaroundRange } from '../../api/turnaround';

export interface DurationFigure {
  testName: string;
  measure: string;
  week: string | null;
  samples: number;
  medianHours: number | null;
  p90Hours: number | null;
}

/** From and To (days), applied together; empty: the last 12 weeks. */
export function RangeFilter({ range, shown, onChange }: { range: TurnaroundRange; shown: { from: string; to: string } | undefined; onChange: (r: TurnaroundRange) => void }) {
  const [from, setFrom] = useState(range.from);
  const [to, setTo] = useState(range.to);
  return (
    <form onSubmit={(e) => { e.preventDefault(); onChange({ from, to }); }} aria-label="Time range">
      <Group align="flex-end" gap="sm">
        <TextInput type="date" label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
        <TextInput type="date" label="To" value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        <Button type="submit" variant="light">Show</Button>
        {(range.from || range.to) && (
          <Button variant="subtle" onClick={() => { setFrom(''); setTo(''); onChange({ from: '', to: '' }); }}>Last 12 weeks</Button>
        )}
        {shown && <Text size="sm" c="dimmed">Showing {shown.from} to {shown.to} (UTC)</Text>}
      </Group>
    </form>
  );
}

/** A section: its heading, its CSV link, its content. */
export function Section({ title, csvHref, children }: { title: string; csvHref?: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id={id}>{title}</Title>
          {csvHref && <Anchor href={csvHref} download>Download CSV<Text span style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}> of {title.toLowerCase()}</Text></Anchor>}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

/** Per test and measure over the whole range: samples, median, 90th percentile. */
export function DurationTable({ rows, label, target }: { rows: DurationFigure[]; label: string; target?: (testName: string) => number | null }) {
  const whole = rows.filter((r) => r.week === null);
  if (!whole.length) return <Text c="dimmed">No sample reached these steps in this range.</Text>;
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table aria-label={label} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Test</Table.Th>
            <Table.Th>Measure</Table.Th>
            <Table.Th ta="right">Samples</Table.Th>
            <Table.Th ta="right">Median</Table.Th>
            <Table.Th ta="right">90th percentile</Table.Th>
            {target && <Table.Th ta="right">Target</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {whole.map((r) => (
            <Table.Tr key={`${r.testName}|${r.measure}`}>
              <Table.Td>{r.testName}</Table.Td>
              <Table.Td>{r.measure}</Table.Td>
              <Table.Td ta="right">{r.samples}</Table.Td>
              <Table.Td ta="right">{describeHours(r.medianHours)}</Table.Td>
              <Table.Td ta="right">{describeHours(r.p90Hours)}</Table.Td>
              {target && <Table.Td ta="right">{describeHours(target(r.testName))}</Table.Td>}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The weekly median of one measure, a line per test (the table beside it holds the numbers). */
export function WeeklyMedianChart({ rows, measure, label }: { rows: DurationFigure[]; measure: string; label: string }) {
  const weekly = rows.filter((r) => r.week !== null && r.measure === measure);
  const tests = [...new Set(weekly.map((r) => r.testName))];
  if (!weekly.length) return null;
  const weeks = [...new Set(weekly.map((r) => r.week!))].sort();
  const data = weeks.map((week) => ({
    week,
    ...Object.fromEntries(tests.map((t) => [t, weekly.find((r) => r.week === week && r.testName === t)?.medianHours ?? null])),
  }));
  const colors = ['blue.6', 'teal.6', 'grape.6', 'orange.6', 'red.6', 'cyan.6', 'lime.7', 'pink.6', 'indigo.6', 'yellow.7'];
  return (
    <figure style={{ margin: 0 }} aria-label={label}>
      <LineChart h={240} data={data} dataKey="week" unit=" h" connectNulls withLegend
        series={tests.map((name, i) => ({ name, color: colors[i % colors.length] }))} />
      <Text component="figcaption" size="sm" c="dimmed">{label}, in hours, by the week the step ended (weeks start on Monday).</Text>
    </figure>
  );
}

/** Rejections by reason (every reason of the spec, zero included). */
export function RejectionTable({ rows }: { rows: RejectionCount[] }) {
  return (
    <Table aria-label="Rejections by reason" striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Reason</Table.Th>
          <Table.Th ta="right">Samples</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.reason}>
            <Table.Td>{r.reason}</Table.Td>
            <Table.Td ta="right">{r.samples}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
