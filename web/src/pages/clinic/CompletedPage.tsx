import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ResultListCategory, SampleStatus } from '@platform/domain';
import type { ResultListRow } from '../../api/clinic';
import { sendResultEmail } from '../../api/reports';
import { useCommand } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';
import { useFocusBack } from '../../shell/focus-back';
import { ClinicPageFrame } from './ClinicPageFrame';
import { ReportButton } from '../../components/ReportButton';
import { ResultList } from './ResultList';

/** The row actions of a completed sample: download the report, (re)send the patient's result email (after saying what it does). */
export function CompletedActions({ accountId, row }: { accountId: number; row: ResultListRow }) {
  const sending = useCommand(`result-email:${row.sampleId}`, () => sendResultEmail(accountId, row.sampleId));
  const [confirming, setConfirming] = useState(false);
  const focusBack = useFocusBack();
  if (row.status === SampleStatus.Rejected) {
    // No result: the patient needs a new sample.
    return (
      <Button component={Link} to={`/provider-clinic/${accountId}/order?patientId=${row.patient.id}`} size="xs" variant="light" aria-label={`Order again for ${row.patient.firstName} ${row.patient.lastName}`}>
        Order again
      </Button>
    );
  }
  const patient = `${row.patient.firstName} ${row.patient.lastName}`;
  const send = () => {
    setConfirming(false);
    void sending.trigger().then(
      (sent) => showSuccessToast(sent.message),
      (error: unknown) => reportError(error, 'Error sending email'),
    );
  };
  return (
    <>
      {row.reportAvailable ? (
        <ReportButton sampleId={row.sampleId} barcode={row.barcode} size="xs" variant="light" />
      ) : (
        <Text fz="xs" c="dimmed">
          Report being prepared
        </Text>
      )}
      <Button size="xs" variant="default" loading={sending.isMutating} onClick={(e) => { focusBack.remember(e.currentTarget); setConfirming(true); }} aria-label={`Send result email for ${row.barcode}`}>
        Send result email
      </Button>
      {confirming && (
        <Modal opened onClose={focusBack.after(() => setConfirming(false))} title={`Send ${patient} a new result email?`}>
          <Stack gap="sm">
            <Text>
              {patient} is emailed a new private link to their result of sample {row.barcode}, at the email address on file. The link sent before stops working at once.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={focusBack.after(() => setConfirming(false))}>Not now</Button>
              <Button onClick={send} data-autofocus>Send the email</Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </>
  );
}

/** /provider-clinic/{accountId}/completed: resulted samples (and rejected ones, with the reason), newest result first. */
export function CompletedPage() {
  return (
    <ClinicPageFrame title="Completed tests">
      {(account) => (
        <ResultList
          accountId={account.id}
          category={ResultListCategory.Completed}
          defaultSort={{ sort: 'resultedAt', order: 'desc' }}
          dateColumn={{ field: 'resultedAt', label: 'Resulted' }}
          actions={(row) => <CompletedActions accountId={account.id} row={row} />}
          emptyText="No completed tests yet. A test appears here once the lab releases its result."
        />
      )}
    </ClinicPageFrame>
  );
}
