import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Badge, Button, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { resultInPatientWords, type ResultContacts } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { downloadPatientReport, type PatientResultView } from '../../api/reports';
import { showErrorModal } from '../../shell/error-modal-store';
import { usePatientText } from '../../i18n/patient-language';
import { ContactDetailsForm } from './ContactDetailsForm';
import { TextMessagesForm } from './TextMessagesForm';
import { formatDate } from '../../format';

/** MM/DD/YYYY, the spec's date format; nothing when there is no date. */
export function shortDate(iso: string | null): string | null {
  return iso ? formatDate(iso) : null;
}

/** The verified patient's result: each test's result in words, the dates, the report and the contact details. */
export function ResultDetails({ barcode, token, view, focusTitle = false }: { barcode: string; token: string; view: PatientResultView; focusTitle?: boolean }) {
  const { t, language } = usePatientText();
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusTitle) title.current?.focus();
  }, [focusTitle]);
  const [downloading, setDownloading] = useState(false);
  // The busy button is disabled while the report comes, which drops the focus: it gets it back.
  const downloadButton = useRef<HTMLButtonElement>(null);
  const wasDownloading = useRef(false);
  useEffect(() => {
    if (wasDownloading.current && !downloading && document.activeElement === document.body) downloadButton.current?.focus();
    wasDownloading.current = downloading;
  }, [downloading]);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadPatientReport(barcode, token);
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      const message = error instanceof ApiError && status > 0 && status < 500 && error.serverMessage ? error.serverMessage : (error as Error).message;
      // The heading is the spec's; in Spanish its words come first in the message.
      showErrorModal({ heading: 'Error downloading PDF', message: language === 'en' ? message : `${t('result.downloadFailed')} ${message}` });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 28, xs: 32 }} ref={title} tabIndex={-1}>
          {t('result.title')}
        </Title>
        <Text fz={18}>{view.patientName}</Text>
      </Stack>

      {view.results.length === 0 && view.inReview.length === 0 && (
        <Alert color="blue" variant="light" fz={18}>
          {t('result.notAvailable')}
        </Alert>
      )}

      {/* A result the patient's clinic reviews first: only when it will be available, never the result. */}
      {view.inReview.map((r) => (
        <Alert key={r.testName} color="blue" variant="light" title={t('result.inReviewTitle')} styles={{ message: { fontSize: 18 } }} data-testid="result-in-review">
          {t('result.inReview', { test: r.testName, date: shortDate(r.availableBy) })}
        </Alert>
      ))}

      {view.results.map((r) => (
        <Paper key={r.testName} withBorder radius="lg" p={{ base: 'md', xs: 'lg' }} aria-label={t('result.testResult', { test: r.testName })}>
          <Stack gap="sm">
            <Text fz={16} c="dimmed" fw={600}>
              {r.testName}
            </Text>
            {r.corrected && (
              <Badge color="orange" size="lg" variant="filled" w="fit-content">
                {t('result.corrected')}
              </Badge>
            )}
            <ResultInWords valueText={r.valueText} />
            {r.corrected && (
              <Alert color="orange" variant="light" title={t('result.correctedTitle')} styles={{ message: { fontSize: 17 } }}>
                {t('result.correctedText')}
                {r.previousValue && <> {t('result.replaces', { value: r.previousValue })}</>}
                {r.correctionReason && <> {t('result.reason', { reason: r.correctionReason })}</>}
              </Alert>
            )}
            {shortDate(r.releasedAt) && <Text fz={16} c="dimmed">{t('result.resultDate', { date: shortDate(r.releasedAt) })}</Text>}
          </Stack>
        </Paper>
      ))}

      <Stack gap={4}>
        <Text fz={16}>{t('result.sampleNumber', { barcode: view.barcode })}</Text>
        {shortDate(view.collectedAt) && <Text fz={16}>{t('result.sampleTaken', { date: shortDate(view.collectedAt) })}</Text>}
        {shortDate(view.receivedAt) && <Text fz={16}>{t('result.received', { date: shortDate(view.receivedAt) })}</Text>}
      </Stack>

      {view.reportAvailable ? (
        <Button ref={downloadButton} size="lg" fullWidth onClick={download} loading={downloading}>
          {t('result.download')}
        </Button>
      ) : view.inReview.length === 0 && (
        <Text fz={17} c="dimmed">
          {t('result.reportPreparing')}
        </Text>
      )}
      {language !== 'en' && view.reportAvailable && (
        <Text fz={16} c="dimmed">
          {t('result.reportEnglish')}
        </Text>
      )}

      <ResultContactsCard contacts={view.contacts} />

      <Divider my="sm" />
      <ContactDetailsForm barcode={barcode} token={token} contact={view.contact} />

      <Divider my="sm" />
      <TextMessagesForm barcode={barcode} token={token} texts={view.texts} />
    </Stack>
  );
}

/** The value as a headline in the patient's words (the spec's value beside it where they differ), what it means, what to do next. */
function ResultInWords({ valueText }: { valueText: string }) {
  const { t, language } = usePatientText();
  const words = resultInPatientWords(language, valueText);
  return (
    <>
      <Text fz={30} fw={750} lh={1.2} c="clinical.8" data-testid="result-value">
        {words.headline}
      </Text>
      {words.headline !== valueText && (
        <Text fz={16} c="dimmed" data-testid="result-spec-value">
          {t('result.specValue', { value: valueText })}
        </Text>
      )}
      {words.meaning && (
        <Text fz={18} lh={1.5} data-testid="result-meaning">
          {words.meaning}
        </Text>
      )}
      {words.nextStep && (
        <Text fz={18} lh={1.5} data-testid="result-next-step">
          <Text span fw={700} fz={18}>{t('result.nextStep')}:</Text> {words.nextStep}
        </Text>
      )}
    </>
  );
}

/** Whom to ask: the ordering clinic and its doctor, then the laboratory, each with a phone and an email to tap. */
function ResultContactsCard({ contacts }: { contacts: ResultContacts }) {
  const { t } = usePatientText();
  const { clinic, lab } = contacts;
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', xs: 'lg' }} component="section" aria-labelledby="result-contacts-title">
      <Stack gap="sm">
        <Title order={2} fz={22} id="result-contacts-title">{t('contacts.title')}</Title>
        <Text fz={17}>{t('contacts.intro')}</Text>
        {clinic && (
          <Stack gap={2} data-testid="contact-clinic">
            <Text fz={17} fw={700}>{t('contacts.clinic', { name: clinic.name })}</Text>
            {clinic.physician && <Text fz={17}>{t('contacts.physician', { name: clinic.physician })}</Text>}
            <ReachBy phone={clinic.phone} email={clinic.email} />
          </Stack>
        )}
        <Stack gap={2} data-testid="contact-lab">
          <Text fz={17} fw={700}>{t('contacts.lab', { name: lab.name })}</Text>
          <ReachBy phone={lab.phone} email={lab.email} />
        </Stack>
      </Stack>
    </Paper>
  );
}

function ReachBy({ phone, email }: { phone: string | null; email: string | null }) {
  const { t } = usePatientText();
  return (
    <>
      {phone && <Text fz={17}>{t('contacts.phone', { phone: '' })}<Anchor href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</Anchor></Text>}
      {email && <Text fz={17} style={{ overflowWrap: 'anywhere' }}>{t('contacts.email', { email: '' })}<Anchor href={`mailto:${email}`}>{email}</Anchor></Text>}
    </>
  );
}
