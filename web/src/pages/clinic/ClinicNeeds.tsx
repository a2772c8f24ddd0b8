/**
 * The clinic home's "Needs your attention" (issue 30, part 5; docs/worklists.md): what waits for
 * the clinic, counted by one read (GET needs), each with a link to the list where it is done.
 */
import { Anchor, Card, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatCount } from '@platform/domain';
import { useClinicNeeds, type ClinicNeeds as Needs } from '../../api/worklists';
import { patientPath } from './ResultList';
import { formatDate } from '../../format';

interface NeedLine {
  kind: 'review' | 'sign-off' | 'ship' | 'questions';
  count: number;
  /** "3 results to review": the count and what it counts, one and many. */
  one: string;
  many: string;
  to: string;
  linkText: string;
  note: string;
}

function needLines(accountId: number, needs: Needs): NeedLine[] {
  const base = `/provider-clinic/${accountId}`;
  return [
    { kind: 'review', count: needs.resultsToReview, one: 'result to review', many: 'results to review', to: `${base}/completed`, linkText: 'Completed tests', note: 'Released results held from the patient until you mark them reviewed.' },
    { kind: 'sign-off', count: needs.ordersAwaitingSignOff, one: 'patient order awaiting sign-off', many: 'patient orders awaiting sign-off', to: `${base}/pending?view=patient-ordered`, linkText: 'Patient-ordered tests', note: 'Paid or covered orders your patients placed themselves; a physician of the account signs each off.' },
    { kind: 'ship', count: needs.kitsToShip, one: 'kit to ship', many: 'kits to ship', to: `${base}/shipments`, linkText: 'Shipments', note: 'Kits at the clinic that no shipment carries yet.' },
    { kind: 'questions', count: needs.labQuestions, one: 'question from the lab', many: 'questions from the lab', to: '', linkText: '', note: 'Questions the lab asked your patients that they have not answered yet.' },
  ];
}

export function ClinicNeeds({ accountId }: { accountId: number }) {
  const { data } = useClinicNeeds(accountId);
  if (!data) return null;
  const lines = needLines(accountId, data).filter((l) => l.count > 0);
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="needs-title">
      <Stack gap="sm">
        <Title order={2} fz="lg" id="needs-title">
          Needs your attention
        </Title>
        {lines.length === 0 ? (
          <Text c="dimmed">Nothing waits for you: no result to review, order to sign off, kit to ship or question from the lab.</Text>
        ) : (
          <List spacing="sm" listStyleType="none" p={0}>
            {lines.map((l) => (
              <List.Item key={l.kind}>
                <Text fw={700} component="span">
                  {formatCount(l.count)} {l.count === 1 ? l.one : l.many}
                </Text>
                {l.to && (
                  <>
                    {' · '}
                    <Anchor component={Link} to={l.to}>
                      {l.linkText}
                    </Anchor>
                  </>
                )}
                <Text fz="sm" c="dimmed">
                  {l.note}
                </Text>
                {l.kind === 'questions' && <LabQuestions accountId={accountId} needs={data} />}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Card>
  );
}

/** The samples of the newest questions, each a link to its patient's page (where the questions are listed). */
function LabQuestions({ accountId, needs }: { accountId: number; needs: Needs }) {
  const more = needs.labQuestions - needs.labQuestionSamples.length;
  return (
    <List size="sm" withPadding aria-label="Questions from the lab">
      {needs.labQuestionSamples.map((q) => (
        <List.Item key={`${q.sampleId}:${q.askedAt}`}>
          <Anchor component={Link} to={patientPath(accountId, q.patientId)} fz="sm">
            Sample {q.barcode}
          </Anchor>{' '}
          <Text component="span" fz="sm" c="dimmed">
            asked {formatDate(q.askedAt)}
          </Text>
        </List.Item>
      ))}
      {more > 0 && <List.Item>and {formatCount(more)} more</List.Item>}
    </List>
  );
}
