import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { SMS_CONSENT_NEEDS_NUMBER, type TextMessageKind } from '@platform/domain';
import { formatDateTime } from '../../format';
import { setPatientTexts, usePatientTexts, type ClinicPatientTexts } from '../../api/patient-texts';
import { FormError } from '../../components/FormError';
import { TextConsentFields } from '../../components/TextConsentFields';
import { useFormSubmit } from '../../forms/use-form-submit';

const KIND_LABEL: Record<TextMessageKind, string> = { 'result-ready': 'Result ready', 'kit-shipped': 'Kit shipped', 'kit-delivered': 'Kit delivered' };

const LABELS = {
  mobile: 'Mobile phone for texts',
  mobileHint: 'A US number, or any number starting with +',
  consent: 'The patient agrees to get texts when their kit ships and when a result is ready',
  consentHint: 'Record this only when the patient said so. A text says only that something is ready, with a link: never a result, a name or a date of birth.',
};

/** The patient's text messages (docs/sms.md): the number and consent they gave, and the latest texts with their status. */
export function PatientTexts({ accountId, patientId }: { accountId: number; patientId: number }) {
  const { data, mutate } = usePatientTexts(accountId, patientId);
  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Title order={2} fz="lg">
          Text messages
        </Title>
        {data ? <PatientTextsForm accountId={accountId} patientId={patientId} data={data} onSaved={(saved) => void mutate(saved, { revalidate: false })} /> : <Text c="dimmed">Loading…</Text>}
      </Stack>
    </Card>
  );
}

function PatientTextsForm({ accountId, patientId, data, onSaved }: { accountId: number; patientId: number; data: ClinicPatientTexts; onSaved: (saved: ClinicPatientTexts) => void }) {
  const [saved, setSaved] = useState(false);
  const form = useForm({
    initialValues: { mobilePhone: data.texts.mobilePhone ?? '', smsConsent: data.texts.smsConsent },
    validate: { mobilePhone: (value, values) => (values.smsConsent && !value.trim() ? SMS_CONSENT_NEEDS_NUMBER : null) },
    onValuesChange: () => setSaved(false),
  });
  useEffect(() => {
    form.setValues({ mobilePhone: data.texts.mobilePhone ?? '', smsConsent: data.texts.smsConsent });
    form.resetDirty();
    // The form follows the record when it is read again (another user's change).
  }, [data.texts.mobilePhone, data.texts.smsConsent]); // eslint-disable-line react-hooks/exhaustive-deps
  const sending = useFormSubmit(form, (values) => setPatientTexts(accountId, patientId, { mobilePhone: values.mobilePhone.trim() || null, smsConsent: values.smsConsent }), {
    onSuccess: (answer) => {
      onSaved(answer);
      setSaved(true);
    },
  });
  const { texts } = data;
  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label="Text messages">
      <Stack gap="md">
        {data.optedOut && (
          <Alert color="orange" variant="light" title="This number replied STOP">
            No text is sent to it until the patient replies START from that phone.
          </Alert>
        )}
        {texts.consentAt && (
          <Text fz="sm" c="dimmed">
            {texts.smsConsent ? 'Consent given' : 'Consent withdrawn'} {formatDateTime(texts.consentAt)} ({texts.consentSource === 'clinic' ? 'recorded by the clinic' : texts.consentSource === 'patient-order' ? 'on the patient\'s order' : 'on the patient\'s result page'})
          </Text>
        )}
        <TextConsentFields labels={LABELS} mobileProps={form.getInputProps('mobilePhone')} consentProps={form.getInputProps('smsConsent', { type: 'checkbox' })} />
        <FormError error={sending.error} />
        {saved && (
          <Alert color="green" variant="light" role="status">
            Saved.
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={sending.submitting}>
            Save text settings
          </Button>
        </Group>
        {data.messages.length > 0 && (
          <Table.ScrollContainer minWidth={520}>
            <Table striped>
              <Table.Caption>The latest texts to the patient (their words are never shown)</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Text</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Written</Table.Th>
                  <Table.Th>Sent</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.messages.map((m) => (
                  <Table.Tr key={m.id}>
                    <Table.Td>{KIND_LABEL[m.kind]}</Table.Td>
                    <Table.Td>
                      {m.status}
                      {m.error ? `: ${m.error}` : ''}
                    </Table.Td>
                    <Table.Td>{formatDateTime(m.createdAt)}</Table.Td>
                    <Table.Td>{m.sentAt ? formatDateTime(m.sentAt) : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </form>
  );
}
