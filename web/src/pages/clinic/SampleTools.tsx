/**
 * The patient page's calls on one sample: ask the patient a question (emailed with a single-use
 * link), register the cancer diagnosis, add a PROSTOX CFRT test; and the patient's follow-ups
 * (registry surveys and questions) with where each stands. Failures of the two forms say
 * 'Error submitting form' (SPEC §8) with the server's reason.
 */
import { useState } from 'react';
import { Button, Card, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  ADD_TEST_SAMPLE_STATUSES, CANCER_SITES, CANCER_STAGES, CancerSite, formatCalendarDate, GLEASON_PATTERN_MAX, GLEASON_PATTERN_MIN, RADIATION_TREATMENTS, SampleStatus, TestName, type CancerDiagnosisBody,
} from '@platform/domain';
import type { PatientSample } from '../../api/clinic';
import { addCfrtTest, askAboutSample, registerCancer, usePatientFollowUps, type CancerDiagnosisView } from '../../api/follow-ups';
import { useRefreshApi } from '../../api/query';
import { clinicApiPath } from '../../api/clinic';
import { FormError } from '../../components/FormError';
import { AskPatientForm, FollowUpTable, SUBMIT_ERROR } from '../../components/SampleFollowUps';
import { useCommand, useFormSubmit } from '../../forms/use-form-submit';
import { showSuccessToast } from '../../shell/success-toast';

/** The three calls on a sample, and its registered diagnosis. */
export function SampleTools({ accountId, patientId, sample, diagnosis }: { accountId: number; patientId: number; sample: PatientSample; diagnosis: CancerDiagnosisView | null }) {
  const [open, setOpen] = useState<'ask' | 'cancer' | null>(null);
  const refresh = useRefreshApi(clinicApiPath(accountId, `patient/${patientId}`));
  const effective = (sample.status === SampleStatus.InStorage ? null : sample.status) as SampleStatus | null;
  const canAddCfrt = effective !== null && ADD_TEST_SAMPLE_STATUSES.includes(effective) && !sample.tests.some((t) => t.name === TestName.ProstoxCfrt);
  return (
    <Stack gap="sm">
      {diagnosis && <DiagnosisSummary diagnosis={diagnosis} />}
      <Group gap="sm" wrap="wrap">
        <Button variant="light" size="sm" onClick={() => setOpen('ask')}>
          Ask the patient
        </Button>
        <Button variant="light" size="sm" onClick={() => setOpen('cancer')}>
          {diagnosis ? 'Update cancer diagnosis' : 'Register cancer diagnosis'}
        </Button>
        {canAddCfrt && <AddCfrtButton accountId={accountId} sampleId={sample.id} onAdded={refresh} />}
      </Group>
      <Modal opened={open === 'ask'} onClose={() => setOpen(null)} title={`Ask the patient about sample ${sample.barcode}`} size="lg">
        <AskPatientForm barcode={sample.barcode} ask={(question) => askAboutSample(accountId, { sampleId: sample.id, question })} onDone={() => { setOpen(null); void refresh(); }} />
      </Modal>
      <Modal opened={open === 'cancer'} onClose={() => setOpen(null)} title={`Cancer diagnosis for sample ${sample.barcode}`} size="lg">
        <CancerForm accountId={accountId} sampleId={sample.id} current={diagnosis} onDone={() => { setOpen(null); void refresh(); }} />
      </Modal>
    </Stack>
  );
}

function DiagnosisSummary({ diagnosis: d }: { diagnosis: CancerDiagnosisView }) {
  const parts = [
    d.site === CancerSite.Other ? d.diagnosis : `${d.site} cancer${d.diagnosis ? ` (${d.diagnosis})` : ''}`,
    `diagnosed ${formatCalendarDate(d.diagnosedOn)}`,
    d.stage ? `stage ${d.stage}` : null,
    d.gleasonPrimary && d.gleasonSecondary ? `Gleason ${d.gleasonPrimary}+${d.gleasonSecondary} (grade group ${d.gradeGroup})` : null,
    d.psa !== null ? `PSA ${d.psa} ng/mL` : null,
    d.plannedTreatment ? `planned: ${d.plannedTreatment}` : null,
  ].filter(Boolean);
  return (
    <Text fz="sm">
      <Text span fw={600}>Diagnosis:</Text> {parts.join(' · ')}
    </Text>
  );
}

function AddCfrtButton({ accountId, sampleId, onAdded }: { accountId: number; sampleId: number; onAdded: () => unknown }) {
  const command = useCommand(`add-cfrt:${sampleId}`, () => addCfrtTest(accountId, sampleId));
  return (
    <Stack gap={4}>
      <Button
        variant="light"
        size="sm"
        loading={command.isMutating}
        onClick={() => {
          command.trigger().then(() => {
            showSuccessToast(`${TestName.ProstoxCfrt} test added`);
            void onAdded();
          }, () => undefined);
        }}
      >
        Add {TestName.ProstoxCfrt} test
      </Button>
      <FormError error={command.error} title={SUBMIT_ERROR} />
    </Stack>
  );
}

type CancerValues = { site: string; diagnosis: string; diagnosedOn: string; stage: string; gleasonPrimary: string; gleasonSecondary: string; psa: number | string; plannedTreatment: string };

const toNumber = (v: string | number) => (v === '' || v === null ? null : Number(v));

function CancerForm({ accountId, sampleId, current, onDone }: { accountId: number; sampleId: number; current: CancerDiagnosisView | null; onDone: () => void }) {
  const form = useForm<CancerValues>({
    initialValues: {
      site: current?.site ?? CancerSite.Prostate,
      diagnosis: current?.diagnosis ?? '',
      diagnosedOn: current?.diagnosedOn ?? '',
      stage: current?.stage ?? '',
      gleasonPrimary: current?.gleasonPrimary ? String(current.gleasonPrimary) : '',
      gleasonSecondary: current?.gleasonSecondary ? String(current.gleasonSecondary) : '',
      psa: current?.psa ?? '',
      plannedTreatment: current?.plannedTreatment ?? '',
    },
    validate: {
      diagnosedOn: (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? null : 'Write the date as YYYY-MM-DD'),
      diagnosis: (v, values) => (values.site === CancerSite.Other && !v.trim() ? 'Name the cancer' : null),
    },
  });
  const prostate = form.getValues().site === CancerSite.Prostate;
  const sending = useFormSubmit(form, (v: CancerValues) => {
    const isProstate = v.site === CancerSite.Prostate;
    const body: CancerDiagnosisBody = {
      sampleId,
      site: v.site as CancerDiagnosisBody['site'],
      diagnosis: v.diagnosis.trim() || null,
      diagnosedOn: v.diagnosedOn,
      stage: (v.stage || null) as CancerDiagnosisBody['stage'],
      gleasonPrimary: isProstate ? toNumber(v.gleasonPrimary) : null,
      gleasonSecondary: isProstate ? toNumber(v.gleasonSecondary) : null,
      psa: isProstate ? toNumber(v.psa) : null,
      plannedTreatment: (v.plannedTreatment || null) as CancerDiagnosisBody['plannedTreatment'],
    };
    return registerCancer(accountId, body);
  }, {
    onSuccess: () => {
      showSuccessToast('Cancer diagnosis saved');
      onDone();
    },
  });
  const gleason = Array.from({ length: GLEASON_PATTERN_MAX - GLEASON_PATTERN_MIN + 1 }, (_, i) => String(GLEASON_PATTERN_MIN + i));
  return (
    <form onSubmit={sending.onSubmit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Select label="Cancer" data={[...CANCER_SITES]} allowDeselect={false} {...form.getInputProps('site')} key={form.key('site')} />
          <TextInput label="Date of diagnosis" placeholder="YYYY-MM-DD" {...form.getInputProps('diagnosedOn')} key={form.key('diagnosedOn')} />
        </SimpleGrid>
        <TextInput label={form.getValues().site === CancerSite.Other ? 'Diagnosis' : 'Diagnosis details (optional)'} {...form.getInputProps('diagnosis')} key={form.key('diagnosis')} />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <Select label="Stage (optional)" data={[...CANCER_STAGES]} clearable {...form.getInputProps('stage')} key={form.key('stage')} />
          <Select label="Planned radiation treatment (optional)" data={[...RADIATION_TREATMENTS]} clearable {...form.getInputProps('plannedTreatment')} key={form.key('plannedTreatment')} />
        </SimpleGrid>
        {prostate && (
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <Select label="Gleason primary pattern" data={gleason} clearable {...form.getInputProps('gleasonPrimary')} key={form.key('gleasonPrimary')} />
            <Select label="Gleason secondary pattern" data={gleason} clearable {...form.getInputProps('gleasonSecondary')} key={form.key('gleasonSecondary')} />
            <NumberInput label="PSA at diagnosis (ng/mL)" min={0} decimalScale={2} {...form.getInputProps('psa')} key={form.key('psa')} />
          </SimpleGrid>
        )}
        <FormError error={sending.error} title={SUBMIT_ERROR} />
        <Group justify="flex-end">
          <Button type="submit" loading={sending.submitting}>
            Save diagnosis
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The patient's follow-ups: registry surveys (when due, sent, answered) and questions with their answers. */
export function PatientFollowUps({ accountId, patientId }: { accountId: number; patientId: number }) {
  const { data } = usePatientFollowUps(accountId, patientId);
  if (!data || data.length === 0) return null;
  return (
    <Card withBorder padding="lg" component="section" aria-label="Follow-ups">
      <Title order={2} fz="lg" mb="sm">
        Follow-ups
      </Title>
      <FollowUpTable followUps={data} label="Follow-ups" withSample />
    </Card>
  );
}
