import type { ReactNode } from 'react';
import { Accordion, Anchor, List, Stack, Table, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import {
  catalogueEntry,
  ORDER_ATTESTATIONS,
  RESULT_LINK_MAX_DOB_FAILURES,
  RiskLevel,
  RISK_LEVELS,
  SampleStatus,
  SampleType,
  TestName,
  TREATMENT_OPTIONS,
} from '@platform/domain';
import { documentHref, STATIC_DOCUMENTS } from '../../documents';
import { patientOrderPath, PROVIDER_INFO_PATHS, signInPath } from '../../portals';
import { InfoPageFrame } from './InfoPageFrame';

const ULTRA = TestName.ProstoxUltra;
const CFRT = TestName.ProstoxCfrt;
const [ultraCourse, cfrtCourse] = TREATMENT_OPTIONS;

/** The way a sample goes in the Clinical Portal, from the order to the released result. */
const SAMPLE_PATH = [
  SampleStatus.OrderPlaced,
  SampleStatus.PendingShipment,
  SampleStatus.InTransit,
  SampleStatus.InQueue,
  SampleStatus.InTesting,
  SampleStatus.Resulted,
  SampleStatus.Completed,
];

/** What each risk category means, in the words of the report's interpretation. */
const RISK_MEANING: Record<RiskLevel, string> = {
  [RiskLevel.LowAverage]: 'Genetic risk no higher than that of patients in general receiving this treatment.',
  [RiskLevel.Intermediate]: 'An intermediate genetic risk.',
  [RiskLevel.High]: 'A high genetic risk. You may take it into account when choosing the treatment and planning follow-up.',
  [RiskLevel.VeryHigh]: 'A very high genetic risk. You may consider an alternative treatment, or measures to reduce toxicity.',
};

function DocumentLink({ id }: { id: (typeof STATIC_DOCUMENTS)[number]['id'] }) {
  const doc = STATIC_DOCUMENTS.find((d) => d.id === id)!;
  return (
    <Anchor href={documentHref(doc)} target="_blank" rel="noopener">
      {doc.title} (PDF)
    </Anchor>
  );
}

interface Question {
  value: string;
  question: string;
  answer: ReactNode;
}

const QUESTIONS: Question[] = [
  {
    value: 'what',
    question: `What do ${ULTRA} and ${CFRT} test for?`,
    answer: (
      <>
        <Text>
          Both are germline genetic tests. They genotype single-nucleotide polymorphisms (SNPs) in the DNA a patient was born
          with, not in the tumour, and a validated model combines them into one risk category: the patient&apos;s risk of late
          genitourinary (GU) and gastrointestinal (GI) toxicity after radiation therapy for prostate cancer. Each test is for
          one way of giving the radiation:
        </Text>
        <List spacing={4}>
          <List.Item>
            <strong>{ULTRA}</strong>: risk of {catalogueEntry(ULTRA).riskOf}.
          </List.Item>
          <List.Item>
            <strong>{CFRT}</strong>: risk of {catalogueEntry(CFRT).riskOf}.
          </List.Item>
        </List>
        <Text>The tests do not diagnose cancer and do not predict whether the cancer will be controlled.</Text>
      </>
    ),
  },
  {
    value: 'which',
    question: 'Which test should I order?',
    answer: (
      <>
        <Text>
          The one for the course of radiation you and your patient are considering: {ULTRA} for SBRT ({ultraCourse.sessions},{' '}
          {ultraCourse.duration}), {CFRT} for conventional or moderately hypofractionated radiation therapy ({cfrtCourse.sessions},{' '}
          {cfrtCourse.duration}).
        </Text>
        <Text>
          When both are options, order both tests on the same order. One sample serves both: germline DNA is the same in every
          cell and does not change, so there is no need to collect twice or to repeat the test later.
        </Text>
      </>
    ),
  },
  {
    value: 'who',
    question: 'Which patients is it for?',
    answer: (
      <>
        <Text>
          Patients with prostate cancer for whom radiation therapy is being considered. The result is most useful before the
          fractionation is decided, while the choice between a short and a longer course is still open; it can also inform
          the follow-up of patients at higher risk.
        </Text>
        <Text>
          The test is not suitable for patients who have had an allogeneic bone marrow or stem cell transplant: their cheek
          cells may carry the donor&apos;s DNA.
        </Text>
      </>
    ),
  },
  {
    value: 'sample',
    question: 'How is the sample collected?',
    answer: (
      <>
        <Text>
          With a buccal (cheek) swab, taken at the clinic or by the patient at home; order it with the sample type{' '}
          {SampleType.BuccalSwab}. The kit holds two swabs, a collection tube labelled with a 14-digit barcode, a specimen bag
          and a prepaid return mailer.
        </Text>
        <List spacing={4}>
          <List.Item>No food, drink other than water, smoking, gum or tooth brushing for 30 minutes before collection.</List.Item>
          <List.Item>Rub each swab firmly inside one cheek for 30 seconds; both swabs go into the same tube.</List.Item>
          <List.Item>Check that the barcode on the tube matches the requisition form; the form goes in the bag&apos;s outer pocket.</List.Item>
          <List.Item>
            Ship at room temperature the same day or within 24 hours. The sample must reach the lab within 14 days of
            collection.
          </List.Item>
        </List>
        <Text>
          Step-by-step instructions for patients and staff: <DocumentLink id="swabbing-instructions" />.
        </Text>
      </>
    ),
  },
  {
    value: 'turnaround',
    question: 'How long do results take, and how do I follow a sample?',
    answer: (
      <>
        <Text>
          Results are usually reported within two weeks of the lab receiving the sample. The Pending tests page of the
          Clinical Portal shows where each sample is: {SAMPLE_PATH.join(' → ')}.
        </Text>
        <Text>
          A sample the lab cannot test (not enough material, an unlabelled tube or a barcode that does not match the form, or a
          sample received more than 14 days after collection) is marked {SampleStatus.Rejected} with the reason, and a new
          sample is needed.
        </Text>
      </>
    ),
  },
  {
    value: 'results',
    question: 'How are results reported?',
    answer: (
      <>
        <Text>The PDF report gives one of four risk categories for the treatment tested, with a short interpretation:</Text>
        <Table withTableBorder verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Risk category</Table.Th>
              <Table.Th scope="col">What it means</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {RISK_LEVELS.map((level) => (
              <Table.Tr key={level}>
                <Table.Th scope="row" style={{ whiteSpace: 'nowrap', verticalAlign: 'top' }}>
                  {level}
                </Table.Th>
                <Table.Td>{RISK_MEANING[level]}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text>
          A risk category is not a certainty: dose, treated volume, technique, other treatments and other health conditions
          also affect toxicity. The result is one factor among others and does not replace clinical judgement. The report
          names the test, the sample barcode and the dates of collection, receipt and report; a corrected report is marked
          Corrected and the earlier version is kept.
        </Text>
        <Text>
          Method, quality control and limitations: <DocumentLink id="tech-note" />.
        </Text>
      </>
    ),
  },
  {
    value: 'ordering',
    question: 'How do I order in the Clinical Portal?',
    answer: (
      <>
        <List type="ordered" spacing={4}>
          <List.Item>
            <Anchor component={Link} to={signInPath('provider')}>
              Sign in to the Clinical Portal
            </Anchor>{' '}
            and open Order a test.
          </List.Item>
          <List.Item>Find the patient, or add them (name, date of birth and sex; with an email address the patient can receive their result).</List.Item>
          <List.Item>
            Choose {ULTRA}, {CFRT} or both, the ordering physician and the sample type {SampleType.BuccalSwab}.
          </List.Item>
          <List.Item>
            Confirm the four attestations:
            <List withPadding spacing={2} mt={4}>
              {ORDER_ATTESTATIONS.map((a) => (
                <List.Item key={a.key}>{a.label}</List.Item>
              ))}
            </List>
          </List.Item>
          <List.Item>Print the requisition form and put it in the kit whose barcode the confirmation shows.</List.Item>
          <List.Item>Once the sample is collected, add the kit to a shipment on the Shipments page.</List.Item>
        </List>
        <Text>
          Patients can also order {ULTRA} or {CFRT} themselves through the{' '}
          <Anchor component={Link} to={patientOrderPath('prostox')}>
            Patient Portal
          </Anchor>{' '}
          on your recommendation, or from an invitation you send on the Invitations page; those orders appear on your Pending
          tests page under Patient-ordered, where a physician of your account signs them off before the kit ships to the
          patient. No account for your practice yet? Contact the PROSTOX support team to open one.
        </Text>
      </>
    ),
  },
  {
    value: 'patients',
    question: 'How do patients get their results?',
    answer: (
      <>
        <Text>
          The result goes to the ordering clinic first. On the Completed tests page you download the PDF report and, when you
          are ready, send the patient their result email: a secure link where the patient confirms their date of birth to see
          the result and download the report. After {RESULT_LINK_MAX_DOB_FAILURES} wrong dates of birth the link locks until
          the clinic sends it again. Every view of a result is recorded.
        </Text>
        <Text>
          For your patients: <DocumentLink id="patient-information" />.
        </Text>
      </>
    ),
  },
  {
    value: 'cost',
    question: 'What does it cost, and is it covered by insurance?',
    answer: (
      <Text>
        Your practice submits the claim to the patient&apos;s insurance. Patients who pay themselves can apply for financial
        assistance. Prices and details:{' '}
        <Anchor component={Link} to={PROVIDER_INFO_PATHS.prostoxUltraBilling}>
          {ULTRA} billing and prices
        </Anchor>
        .
      </Text>
    ),
  },
  {
    value: 'contacts',
    question: 'Who do I contact?',
    answer: (
      <List spacing={4}>
        <List.Item>
          Orders, kits, shipments and sample status: the PROSTOX support team, at the support address printed on the kit.
          Quote the 14-digit sample barcode, and please leave patient names and dates of birth out of email.
        </List.Item>
        <List.Item>A question about a result: ask the support team for a call with the laboratory director.</List.Item>
        <List.Item>Access to the Clinical Portal for a colleague: your account&apos;s super admin.</List.Item>
        <List.Item>
          Billing and financial assistance:{' '}
          <Anchor component={Link} to={PROVIDER_INFO_PATHS.prostoxUltraBilling}>
            billing and prices
          </Anchor>
          .
        </List.Item>
      </List>
    ),
  },
];

/** /provider/prostox-faq: questions physicians ask about PROSTOX ultra and PROSTOX CFRT (public, no sign-in). */
export function ProstoxFaqPage() {
  return (
    <InfoPageFrame
      title="PROSTOX questions and answers"
      subtitle={`For physicians and clinic staff ordering ${ULTRA} and ${CFRT}`}
      here={PROVIDER_INFO_PATHS.prostoxFaq}
    >
      <Accordion multiple defaultValue={['what']} variant="separated" order={2} chevronPosition="right">
        {QUESTIONS.map(({ value, question, answer }) => (
          <Accordion.Item key={value} value={value}>
            <Accordion.Control>
              <Text fw={600}>{question}</Text>
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap="sm">{answer}</Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </InfoPageFrame>
  );
}
