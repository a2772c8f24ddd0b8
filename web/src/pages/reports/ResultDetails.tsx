import { useState } from 'react';
import { Alert, Badge, Button, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { formatDate } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { downloadPatientReport, type PatientResultView } from '../../api/reports';
import { showErrorModal } from '../../shell/error-modal-store';
import { ContactDetailsForm } from './ContactDetailsForm';

/** MM/DD/YYYY, the spec's date format; nothing when there is no date. */
export function shortDate(iso: string | null): string | null {
  return iso ? formatDate(iso) : null;
}

/** The verified patient's result: each test's result in words, the dates, the report and the contact details. */
export function ResultDetails({ barcode, token, view }: { barcode: string; token: string; view: PatientResultView }) {
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadPatientReport(barcode, token);
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      showErrorModal({
        heading: 'Error downloading PDF',
        message: error instanceof ApiError && status > 0 && status < 500 && error.serverMessage ? error.serverMessage : (error as Error).message,
      });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, xs: 32 }}>
          Your result
        </Title>
        <Text fz={18}>{view.patientName}</Text>
      </Stack>

      {view.results.length === 0 && (
        <Alert color="blue" variant="light" fz={18}>
          Your result is not available right now. Please check again later, or contact your doctor&apos;s office.
        </Alert>
      )}

      {view.results.map((r) => (
        <Paper key={r.testName} withBorder radius="lg" p={{ base: 'md', xs: 'lg' }} aria-label={`${r.testName} result`}>
          <Stack gap="sm">
            <Text fz={16} c="dimmed" fw={600}>
              {r.testName}
            </Text>
            {r.corrected && (
              <Badge color="orange" size="lg" variant="filled" w="fit-content">
                Corrected
              </Badge>
            )}
            <Text fz={30} fw={750} lh={1.2} c="clinical.8" data-testid="result-value">
              {r.valueText}
            </Text>
            {r.interpretation && r.interpretation !== r.valueText && (
              <Text fz={18} lh={1.5}>
                {r.interpretation}
              </Text>
            )}
            {r.corrected && (
              <Alert color="orange" variant="light" title="This result was corrected" styles={{ message: { fontSize: 17 } }}>
                The lab corrected this result after it was first sent.
                {r.previousValue && <> It replaces the earlier result ({r.previousValue}).</>}
                {r.correctionReason && <> Reason: {r.correctionReason}</>}
              </Alert>
            )}
            {shortDate(r.releasedAt) && <Text fz={16} c="dimmed">Result date: {shortDate(r.releasedAt)}</Text>}
          </Stack>
        </Paper>
      ))}

      <Stack gap={4}>
        <Text fz={16}>Sample number: {view.barcode}</Text>
        {shortDate(view.collectedAt) && <Text fz={16}>Sample taken: {shortDate(view.collectedAt)}</Text>}
        {shortDate(view.receivedAt) && <Text fz={16}>Received by the lab: {shortDate(view.receivedAt)}</Text>}
      </Stack>

      {view.reportAvailable ? (
        <Button size="lg" fullWidth onClick={download} loading={downloading}>
          Download report (PDF)
        </Button>
      ) : (
        <Text fz={17} c="dimmed">
          Your printable report is being prepared. Please come back to this page a little later to download it.
        </Text>
      )}

      <Text fz={17}>
        Questions about what your result means for you? Your doctor will go over it with you.
      </Text>

      <Divider my="sm" />
      <ContactDetailsForm barcode={barcode} token={token} contact={view.contact} />
    </Stack>
  );
}
