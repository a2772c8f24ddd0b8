import { useEffect, useId, useRef, useState } from 'react';
import { Button, Loader, Stack, Text, type ButtonProps } from '@mantine/core';
import { fetchRequisitionForm, saveFile } from '../api/clinic';
import { ApiError } from '../api/fetcher';
import { reportError } from '../shell/report-error';

/**
 * Downloads a sample's test requisition form. Right after an order the worker is still rendering
 * it: the button waits ("Preparing the form…") and downloads it as soon as it is there. When the
 * form cannot exist yet (a patient's own order before the physician's sign-off) the button is
 * disabled and `unavailableReason` is said beside it.
 */
export function RequisitionButton({
  barcode, label = 'Download requisition form', unavailableReason, ...props
}: { barcode: string; label?: string; unavailableReason?: string | null } & ButtonProps) {
  const reasonId = useId();
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

  if (unavailableReason) {
    return (
      <Stack gap={4} align="flex-start">
        <Button disabled aria-describedby={reasonId} {...props}>
          {label}
        </Button>
        <Text id={reasonId} fz="sm" c="dimmed">
          {unavailableReason}
        </Text>
      </Stack>
    );
  }

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
