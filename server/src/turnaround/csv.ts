/** The dashboards' tables as CSV (one table a file; cells never read as formulas). */
import {
  describeTarget, type ClinicTurnaroundTable, type ClinicTurnaroundView, type LabTurnaroundTable, type LabTurnaroundView, type RejectionCount,
} from '@platform/domain';
import { csvCell } from '../imports/imports';

const csv = (header: string[], rows: unknown[][]) => `${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
const orBlank = (v: number | null) => (v === null ? '' : v);

const turnaroundCsv = (rows: LabTurnaroundView['turnaround'] | ClinicTurnaroundView['turnaround']) => csv(
  ['test', 'measure', 'week_starting', 'samples', 'median_hours', 'p90_hours'],
  rows.map((r) => [r.testName, r.measure, r.week ?? 'whole range', r.samples, orBlank(r.medianHours), orBlank(r.p90Hours)]),
);
const rejectionsCsv = (rows: RejectionCount[]) => csv(['reason', 'samples'], rows.map((r) => [r.reason, r.samples]));

export function labTurnaroundCsv(view: LabTurnaroundView, table: LabTurnaroundTable): { fileName: string; csv: string } {
  const fileName = `lab-${table}-${view.from}-to-${view.to}.csv`;
  switch (table) {
    case 'turnaround': return { fileName, csv: turnaroundCsv(view.turnaround) };
    case 'overdue': return {
      fileName,
      csv: csv(['test', 'target_hours', 'open', 'open_past_target', 'resulted', 'resulted_past_target'],
        view.overdue.map((r) => [r.testName, orBlank(r.targetHours), r.open, r.openPastTarget, r.resulted, r.resultedPastTarget])),
    };
    case 'throughput': return { fileName, csv: csv(['day', 'received', 'resulted', 'rejected'], view.throughput.map((r) => [r.day, r.received, r.resulted, r.rejected])) };
    case 'rejections': return { fileName, csv: rejectionsCsv(view.rejections) };
  }
}

export function clinicTurnaroundCsv(view: ClinicTurnaroundView, table: ClinicTurnaroundTable): { fileName: string; csv: string } {
  const fileName = `clinic-${table}-${view.from}-to-${view.to}.csv`;
  switch (table) {
    case 'turnaround': return { fileName, csv: turnaroundCsv(view.turnaround) };
    case 'overdue': return {
      fileName,
      csv: csv(['barcode', 'tests', 'status', 'since', 'received_at', 'hours_since_receipt', 'target'],
        view.overdue.map((r) => [r.barcode, r.testNames.join('; '), r.status, r.since, r.receivedAt, r.hoursSinceReceipt, describeTarget(r.targetHours, 'hours')])),
    };
    case 'rejections': return { fileName, csv: rejectionsCsv(view.rejections) };
  }
}
