/**
 * The lab's questions to a sample's patient (docs/registry-and-follow-ups.md), from any row that
 * shows a sample: "Ask the patient" opens the sample's follow-ups (every question asked, by the
 * lab or the clinic, and registry surveys: status, when, the answer) and the form that emails a
 * new question with a single-use link. The form and the table are the clinic's own
 * (components/SampleFollowUps).
 */
import { useState } from 'react';
import { Button, Loader, Stack, Text, Title } from '@mantine/core';
import { askAboutSampleAsLab, sampleFollowUpsPath, useSampleFollowUps } from '../../api/lab';
import { useRefreshApi } from '../../api/query';
import { LazyModal } from '../../components/LazyModal';
import { AskPatientForm, FollowUpTable } from '../../components/SampleFollowUps';

/**
 * The button on a sample's row, and the dialog it opens (its reads start when it opens). The dialog
 * is a LazyModal: nothing of it is rendered on the page's many rows until one is opened.
 */
export function AskPatientButton({ sampleId, barcode }: { sampleId: number; barcode: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="compact-xs" variant="light" mt={4} onClick={() => setOpen(true)} aria-label={`Ask the patient about sample ${barcode}`}>
        Ask the patient
      </Button>
      <LazyModal opened={open} onClose={() => setOpen(false)} title={`Questions to the patient about sample ${barcode}`} size="xl">
        <SampleQuestions sampleId={sampleId} barcode={barcode} />
      </LazyModal>
    </>
  );
}

function SampleQuestions({ sampleId, barcode }: { sampleId: number; barcode: string }) {
  const { data, isLoading } = useSampleFollowUps(sampleId);
  const refresh = useRefreshApi(sampleFollowUpsPath(sampleId));
  return (
    <Stack gap="md">
      <Title order={3} fz="md">
        Asked so far
      </Title>
      {isLoading ? (
        <Loader size="sm" aria-label="Loading the questions asked" />
      ) : data && data.length > 0 ? (
        <FollowUpTable followUps={data} label={`Follow-ups of sample ${barcode}`} />
      ) : (
        <Text fz="sm" c="dimmed">
          Nothing has been asked about this sample yet.
        </Text>
      )}
      <Title order={3} fz="md">
        Ask a new question
      </Title>
      <AskPatientForm barcode={barcode} ask={(question) => askAboutSampleAsLab({ sampleId, question })} onDone={() => void refresh()} />
    </Stack>
  );
}
