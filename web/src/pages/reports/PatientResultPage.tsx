import { useEffect, useRef, useState } from 'react';
import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { BrandMark } from '../../components/BrandMark';
import { PageLoader } from '../../components/PageLoader';
import { ApiError } from '../../api/fetcher';
import { logViewResult, patientResultPath, usePatientResult, type PatientResultGreeting } from '../../api/reports';
import { DateOfBirthForm } from './DateOfBirthForm';
import { ResultDetails } from './ResultDetails';

const LOCKED_MESSAGE = 'This link is locked after too many attempts. Please contact your provider to have it sent again.';

/**
 * /reports/patient_result/{barcode}?token=…: the patient's own result, reached from the emailed
 * link. Until the date of birth is confirmed it shows only "Hello <first name> <last initial>.";
 * then the result, the report download and the contact details. Built for a phone: one column,
 * large type, plain words.
 */
export function PatientResultPage() {
  const { barcode = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token');
  const { data, error, isLoading } = usePatientResult(barcode, token);
  const { mutate } = useSWRConfig();
  const [locked, setLocked] = useState(false);

  const onVerified = (greeting: PatientResultGreeting) => {
    if (token) void mutate(patientResultPath(barcode, token), greeting, { revalidate: false });
  };

  let body;
  if (!token || (error instanceof ApiError && error.status === 404)) {
    body = <InvalidLink />;
  } else if (isLoading || (!data && !error)) {
    body = <PageLoader label="Loading your result" />;
  } else if (!data) {
    body = (
      <Alert color="red" variant="light" role="alert" title="We could not load your result">
        Please check your connection and reload this page.
      </Alert>
    );
  } else if (data.locked || locked) {
    body = (
      <Stack gap="md">
        <Greeting greeting={data} />
        <Alert color="red" variant="light" role="alert" title="Link locked" styles={{ message: { fontSize: 18 } }}>
          {LOCKED_MESSAGE}
        </Alert>
      </Stack>
    );
  } else if (data.verified && data.result) {
    body = <VerifiedResult barcode={barcode} token={token} greeting={data} />;
  } else {
    body = (
      <Stack gap="lg">
        <Greeting greeting={data} />
        <Text fz={18}>
          Your test result is ready. To keep it private, please confirm your date of birth.
        </Text>
        <DateOfBirthForm barcode={barcode} token={token} onVerified={onVerified} onLocked={() => setLocked(true)} />
      </Stack>
    );
  }

  return (
    <Stack gap="xl" maw={560} mx="auto" py={{ base: 'md', xs: 'xl' }} px={{ base: 4, xs: 0 }} fz={18}>
      <Stack gap={6}>
        <BrandMark size={32} />
        <Text fz="sm" fw={600} c="clinical.7" tt="uppercase" lts={0.6} mt="xs">
          Your test result
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}

function Greeting({ greeting }: { greeting: PatientResultGreeting }) {
  return (
    <Title order={1} fz={{ base: 28, xs: 32 }}>
      Hello {greeting.firstName} {greeting.lastInitial}.
    </Title>
  );
}

function InvalidLink() {
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="sm">
        <Title order={1} fz={26}>
          This link does not work
        </Title>
        <Text fz={18}>
          It may be incomplete, or a newer link may have been sent to you. Please open the link in the most recent
          email about your result.
        </Text>
        <Text fz={18}>If it still does not work, contact your doctor&apos;s office and ask them to send it again.</Text>
      </Stack>
    </Paper>
  );
}

/** The verified view: logs the view once per showing, then the result. */
function VerifiedResult({ barcode, token, greeting }: { barcode: string; token: string; greeting: PatientResultGreeting }) {
  const logged = useRef(false);
  useEffect(() => {
    if (logged.current) return;
    logged.current = true;
    logViewResult({ barcode, token }).catch(() => undefined); // the view itself must not fail on the log
  }, [barcode, token]);
  return <ResultDetails barcode={barcode} token={token} view={greeting.result!} />;
}
