import { useState } from 'react';
import { Button, type ButtonProps } from '@mantine/core';
import { reportError } from '../../shell/report-error';
import { downloadProviderReport } from '../../api/reports';

/** Downloads a sample's current lab report (the download is audited by the API). */
export function ReportButton({ sampleId, barcode, label = 'Report', ...props }: { sampleId: number; barcode: string; label?: string } & ButtonProps) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadProviderReport(sampleId);
    } catch (error) {
      reportError(error, 'Error downloading PDF');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button onClick={() => void download()} loading={busy} aria-label={`Download the report of ${barcode}`} {...props}>
      {label}
    </Button>
  );
}
