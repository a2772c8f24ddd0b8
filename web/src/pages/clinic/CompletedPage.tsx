import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { ResultListCategory, SampleStatus } from '@platform/domain';
import { labReportUrl, sendResultEmail, type ResultListRow } from '../../api/clinic';
import { reportQueryError } from '../../api/query';
import { showSuccessToast } from '../../shell/success-toast';
import { ClinicPageFrame } from './ClinicPageFrame';
import { ResultList } from './ResultList';

/** The row actions of a completed sample: download the report, (re)send the patient's result email. */
function CompletedActions({ accountId, row }: { accountId: number; row: ResultListRow }) {
  const [sending, setSending] = useState(false);
  if (row.status === SampleStatus.Rejected) return null;
  const send = async () => {
    setSending(true);
    try {
      await sendResultEmail(accountId, row.sampleId);
      showSuccessToast(`Result email sent to ${row.patient.firstName} ${row.patient.lastName}`);
    } catch (error) {
      reportQueryError(error, 'Error sending email');
    } finally {
      setSending(false);
    }
  };
  return (
    <>
      {row.reportAvailable ? (
        <Button component="a" href={labReportUrl(row.sampleId)} size="xs" variant="light" aria-label={`Download the report of ${row.barcode}`}>
          Report
        </Button>
      ) : (
        <Text fz="xs" c="dimmed">
          Report being prepared
        </Text>
      )}
      <Button size="xs" variant="default" loading={sending} onClick={() => void send()} aria-label={`Send the result email for ${row.barcode}`}>
        Send result email
      </Button>
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
