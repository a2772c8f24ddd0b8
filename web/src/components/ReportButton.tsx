import { Button, type ButtonProps } from '@mantine/core';
import { useCommand } from '../forms/use-form-submit';
import { reportError } from '../shell/report-error';
import { downloadProviderReport } from '../api/reports';

/** Downloads a sample's current lab report (the download is audited by the API). Its name contains the
 * visible words ("Report", "Download report") and adds the sample, for voice control (WCAG 2.5.3). */
export function ReportButton({ sampleId, barcode, label = 'Report', ...props }: { sampleId: number; barcode: string; label?: string } & ButtonProps) {
  const downloading = useCommand(`report:${sampleId}`, () => downloadProviderReport(sampleId));
  const download = () => downloading.trigger().catch((error: unknown) => reportError(error, 'Error downloading PDF'));
  return (
    <Button onClick={() => void download()} loading={downloading.isMutating} aria-label={`Download report of ${barcode}`} {...props}>
      {label}
    </Button>
  );
}
