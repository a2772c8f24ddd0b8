import { Button, type ButtonProps } from '@mantine/core';
import { useCommand } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';
import { downloadProviderReport } from '../../api/reports';

/** Downloads a sample's current lab report (the download is audited by the API). */
export function ReportButton({ sampleId, barcode, label = 'Report', ...props }: { sampleId: number; barcode: string; label?: string } & ButtonProps) {
  const downloading = useCommand(`report:${sampleId}`, () => downloadProviderReport(sampleId));
  const download = () => downloading.trigger().catch((error: unknown) => reportError(error, 'Error downloading PDF'));
  return (
    <Button onClick={() => void download()} loading={downloading.isMutating} aria-label={`Download the report of ${barcode}`} {...props}>
      {label}
    </Button>
  );
}
