import { useState } from 'react';
import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ResultListCategory, SampleStatus } from '@platform/domain';
import { useRefreshClinic, type ResultListRow } from '../../api/clinic';
import { markSampleReviewed } from '../../api/patient-release';
import { sendResultEmail } from '../../api/reports';
import { useCommand } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';
import { useFocusBack } from '../../shell/focus-back';
import { ClinicPageFrame } from './ClinicPageFrame';
import { ReportButton } from '../../components/ReportButton';
import { AA_COLORS } from '../../status-colors';
import { ResultList } from './ResultList';
import { formatDate } from '../../format';

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
  if (row.awaitingReview) {
    // The result is held from the patient until the clinic's review: reviewing it is what sends it.
    return (
      <>
        {row.reportAvailable ? (
          <ReportButton sampleId={row.sampleId} barcode={row.barcode} size="xs" variant="light" />
        ) : (
          <Text fz="xs" c="dimmed">
            Report being prepared
          </Text>
        )}
        <MarkReviewed accountId={accountId} row={row} patient={patient} />
      </>
    );
  }
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

/** Under the status of a result held for the clinic's review: says so, and when it goes to the patient anyway. */
export function AwaitingReviewNote({ row }: { row: ResultListRow }) {
  if (!row.awaitingReview) return null;
  return (
    <Stack gap={2}>
      <Badge color={AA_COLORS.orange} variant="filled" size="sm" radius="sm" w="fit-content">
        Awaiting your review
      </Badge>
      <Text fz="xs" c="dimmed">
        Goes to the patient on {formatDate(row.awaitingReview.releaseDueAt)}
      </Text>
    </Stack>
  );
}

/** "Mark reviewed": after saying what it does, the held results go to the patient now. */
function MarkReviewed({ accountId, row, patient }: { accountId: number; row: ResultListRow; patient: string }) {
  const reviewing = useCommand(`mark-reviewed:${row.sampleId}`, () => markSampleReviewed(accountId, row.sampleId));
  const refresh = useRefreshClinic(accountId);
  const [confirming, setConfirming] = useState(false);
  const focusBack = useFocusBack();
  const tests = row.awaitingReview?.tests.join(' and ') ?? '';
  const review = () => {
    setConfirming(false);
    void reviewing.trigger().then(
      (answer) => {
        showSuccessToast(answer.message);
        void refresh();
      },
      (error: unknown) => reportError(error, 'Error marking the result reviewed'),
    );
  };
  return (
    <>
      <Button size="xs" loading={reviewing.isMutating} onClick={(e) => { focusBack.remember(e.currentTarget); setConfirming(true); }} aria-label={`Mark reviewed ${row.barcode}`}>
        Mark reviewed
      </Button>
      {confirming && (
        <Modal opened onClose={focusBack.after(() => setConfirming(false))} title={`Mark ${patient}'s ${tests} result reviewed?`}>
          <Stack gap="sm">
            <Text>
              {patient} is emailed a private link to their result of sample {row.barcode} now. Without your review it goes to them on {formatDate(row.awaitingReview!.releaseDueAt)}.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={focusBack.after(() => setConfirming(false))}>Not now</Button>
              <Button onClick={review} data-autofocus>Mark reviewed</Button>
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
          statusNote={(row) => <AwaitingReviewNote row={row} />}
          emptyText="No completed tests yet. A test appears here once the lab releases its result."
        />
      )}
    </ClinicPageFrame>
  );
}
