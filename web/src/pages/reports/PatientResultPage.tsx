import { useEffect, useRef, useState } from 'react';
import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { BrandMark } from '../../components/BrandMark';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { usePatientText } from '../../i18n/patient-language';
import { PageLoader } from '../../components/PageLoader';
import { ApiError } from '../../api/fetcher';
import { logViewResult, patientResultPath, setPatientLanguage, usePatientResult, type PatientResultGreeting } from '../../api/reports';
import { DateOfBirthForm } from './DateOfBirthForm';
import { ResultDetails } from './ResultDetails';

/**
 * /reports/patient_result/{barcode}?token=…: the patient's own result, reached from the emailed
 * link. Until the date of birth is confirmed it shows only "Hello <first name> <last initial>.";
 * then the result, the report download and the contact details. Built for a phone: one column,
 * large type, plain words, in English or Spanish (a verified patient's switch is stored with them:
 * their emails follow it).
 */
export function PatientResultPage() {
  const { barcode = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token');
  const { data, error, isLoading } = usePatientResult(barcode, token);
  const { mutate } = useSWRConfig();
  const [locked, setLocked] = useState(false);
  const { t } = usePatientText();

  // Confirming the date of birth replaces the form: the result's title then takes the focus.
  const [justVerified, setJustVerified] = useState(false);
  const onVerified = (greeting: PatientResultGreeting) => {
    setJustVerified(true);
    if (token) void mutate(patientResultPath(barcode, token), greeting, { revalidate: false });
  };

  let body;
  if (!token || (error instanceof ApiError && error.status === 404)) {
    body = <InvalidLink />;
  } else if (isLoading || (!data && !error)) {
    body = <PageLoader label={t('result.loading')} />;
  } else if (!data) {
    body = (
      <Alert color="red" variant="light" role="alert" title={t('result.loadFailed')}>
        {t('common.checkConnection')}
      </Alert>
    );
  } else if (data.locked || locked) {
    body = (
      <Stack gap="md">
        <Greeting greeting={data} />
        <Alert color="red" variant="light" role="alert" title={t('result.lockedTitle')} styles={{ message: { fontSize: 18 } }}>
          {t('result.locked')}
        </Alert>
      </Stack>
    );
  } else if (data.verified && data.result) {
    body = <VerifiedResult barcode={barcode} token={token} greeting={data} focusTitle={justVerified} />;
  } else {
    body = (
      <Stack gap="lg">
        <Greeting greeting={data} />
        <Text fz={18}>
          {t('result.confirmIntro')}
        </Text>
        <DateOfBirthForm barcode={barcode} token={token} onVerified={onVerified} onLocked={() => setLocked(true)} />
      </Stack>
    );
  }

  return (
    <Stack gap="xl" maw={560} mx="auto" py={{ base: 'md', xs: 'xl' }} px={{ base: 4, xs: 0 }} fz={18}>
      <Stack gap={6}>
        <LanguageSwitch
          onChange={(language) => {
            // Stored once the patient is verified (the link's session may change the patient's record); a failure leaves the page switched.
            if (token && data?.verified) setPatientLanguage({ barcode, token, language }).catch(() => undefined);
          }}
        />
        <BrandMark size={32} />
        <Text fz="sm" fw={600} c="clinical.7" tt="uppercase" lts={0.6} mt="xs">
          {t('result.kicker')}
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}

function Greeting({ greeting }: { greeting: PatientResultGreeting }) {
  const { t } = usePatientText();
  return (
    <Title order={1} fz={{ base: 28, xs: 32 }}>
      {t('result.greeting', { firstName: greeting.firstName, lastInitial: greeting.lastInitial })}
    </Title>
  );
}

function InvalidLink() {
  const { t } = usePatientText();
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="sm">
        <Title order={1} fz={26}>
          {t('common.linkDoesNotWork')}
        </Title>
        <Text fz={18}>{t('result.invalidText')}</Text>
        <Text fz={18}>{t('result.invalidContact')}</Text>
      </Stack>
    </Paper>
  );
}

/** The verified view: logs the view once per showing, then the result. */
function VerifiedResult({ barcode, token, greeting, focusTitle }: { barcode: string; token: string; greeting: PatientResultGreeting; focusTitle: boolean }) {
  const logged = useRef(false);
  useEffect(() => {
    if (logged.current) return;
    logged.current = true;
    logViewResult({ barcode, token }).catch(() => undefined); // the view itself must not fail on the log
  }, [barcode, token]);
  return <ResultDetails barcode={barcode} token={token} view={greeting.result!} focusTitle={focusTitle} />;
}
