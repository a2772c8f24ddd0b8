import { useEffect, useRef, useState } from 'react';
import { Button, Loader, type ButtonProps } from '@mantine/core';
import { fetchRequisitionForm, saveFile } from '../../api/clinic';
import { ApiError } from '../../api/fetcher';
import { reportError } from '../../shell/report-error';

/**
 * Downloads a sample's test requisition form. Right after an order the worker is still rendering
 * it: the button waits ("Preparing the form…") and downloads it as soon as it is there.
 */
export function RequisitionButton({ barcode, label = 'Download requisition form', ...props }: { barcode: string; label?: string } & ButtonProps) {
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const download = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setBusy(true);
    try {
      const pdf = await fetchRequisitionForm(barcode, controller.signal);
      saveFile(pdf, `test-requisition-${barcode}.pdf`);
    } catch (error) {
      if (controller.signal.aborted) return;
      reportError(error instanceof ApiError ? error : new Error('The download failed'), 'Error downloading PDF');
    } finally {
      if (abort.current === controller) setBusy(false);
    }
  };

  return (
    <Button
      onClick={() => void download()}
      disabled={busy}
      aria-busy={busy}
      leftSection={busy ? <Loader size={14} color="gray" /> : undefined}
      {...props}
    >
      {busy ? 'Preparing the form…' : label}
    </Button>
  );
}
