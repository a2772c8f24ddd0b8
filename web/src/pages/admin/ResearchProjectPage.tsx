/**
 * /admin/provider/research-projects/{id}: one research project. Its fields and accounts; its
 * questionnaire in the form builder (the draft, or a new draft started from the latest published
 * version), saved as a draft and published as a version that never changes (new participants
 * answer it; responses given under an earlier version keep theirs); the versions so far; and
 * closing the project (no new orders; everything already there kept). A closed project is read only.
 */
import { useState } from 'react';
import { Alert, Anchor, Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { describeDefinitionProblems, formatCount, type QuestionnaireDefinition, type TestName } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import {
  closeResearchProject, publishQuestionnaire, saveQuestionnaireDraft, updateResearchProject, useAdminResearchProject, useRefreshAdminResearch,
  type AdminResearchProjectView,
} from '../../api/research-projects';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError } from '../../components/FormError';
import { RecordTable } from '../../components/RecordTable';
import { useCommand } from '../../forms/use-form-submit';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';
import { AdminPageFrame } from './AdminPageFrame';
import { ADMIN_PATHS } from './paths';
import { BLANK_QUESTIONNAIRE, cleanDefinition, QuestionnaireBuilder, type DefinitionErrors } from './QuestionnaireBuilder';
import { QueryState, queryFlags } from './QueryState';
import { ResearchProjectFields } from './ResearchProjectFields';
import { formatDateTime } from '../../format';

export function ResearchProjectPage() {
  const id = Number(useParams().projectId);
  const project = useAdminResearchProject(id);
  const p = project.data;
  return (
    <AdminPageFrame title={p ? p.name : 'Research project'} subtitle={<Anchor component={Link} to={ADMIN_PATHS.researchProjects}>All research projects</Anchor>}>
      <QueryState what="research project" {...queryFlags(project, () => false)} emptyText="" onRetry={() => void project.mutate()}>
        {p && <ProjectSections key={`${p.id}`} project={p} />}
      </QueryState>
    </AdminPageFrame>
  );
}

function ProjectSections({ project: p }: { project: AdminResearchProjectView }) {
  const refresh = useRefreshAdminResearch();
  const closed = Boolean(p.closedAt);
  return (
    <Stack gap="lg">
      {closed && (
        <Alert color="gray" variant="light" title="Closed">
          Closed {formatDateTime(p.closedAt!)}{p.closedBy ? ` by ${p.closedBy}` : ''}: the project takes no new orders; its participants, study responses and
          results are kept.
        </Alert>
      )}
      <Card withBorder padding="lg" component="section" aria-labelledby="project-fields">
        <Stack gap="sm">
          <Title order={2} fz="lg" id="project-fields">Project</Title>
          <ResearchProjectFields
            initial={{
              name: p.name, protocol: p.protocol ?? '', consentDocument: p.consentDocument ?? '', accounts: p.accounts, tests: p.tests as TestName[],
            }}
            submitLabel="Save project"
            errorTitle="Project not saved"
            disabled={closed}
            onSubmit={(body) => updateResearchProject(p.id, body)}
            onSaved={(saved) => {
              showSuccessToast(`Research project ${saved.name} saved`);
              void refresh();
            }}
          />
        </Stack>
      </Card>
      {/* A new draft or a publication starts the builder again from what the server holds. */}
      {!closed && <QuestionnaireSection key={p.versions[0] ? `${p.versions[0].id}:${p.versions[0].publishedAt ?? 'draft'}:${p.versions[0].updatedAt}` : 'none'} project={p} />}
      <Versions project={p} />
      {!closed && <CloseProject project={p} />}
    </Stack>
  );
}

/** The server's field messages of a draft ('definition.questions.2.label') on the builder's fields. */
function definitionErrorsOf(error: unknown): DefinitionErrors {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(error.fields.filter((f) => f.field.startsWith('definition')).map((f) => [f.field.replace(/^definition\.?/, ''), f.message]));
}

function QuestionnaireSection({ project: p }: { project: AdminResearchProjectView }) {
  const refresh = useRefreshAdminResearch();
  const draft = p.versions.find((v) => !v.publishedAt);
  const latest = p.versions.find((v) => v.publishedAt);
  const nextVersion = draft?.version ?? (p.versions[0]?.version ?? 0) + 1;
  const [value, setValue] = useState<QuestionnaireDefinition>(draft?.definition ?? latest?.definition ?? BLANK_QUESTIONNAIRE);
  const [errors, setErrors] = useState<DefinitionErrors>({});
  const [publishing, setPublishing] = useState(false);
  const save = useCommand(`research-project:${p.id}:draft`, (definition: QuestionnaireDefinition) => saveQuestionnaireDraft(p.id, definition));
  const publish = useCommand(`research-project:${p.id}:publish`, async (definition: QuestionnaireDefinition) => {
    await saveQuestionnaireDraft(p.id, definition);
    return publishQuestionnaire(p.id);
  });
  // The domain's check of a definition, the one the server runs, before anything is sent.
  const checked = (): QuestionnaireDefinition | null => {
    const definition = cleanDefinition(value);
    const problems = Object.fromEntries(describeDefinitionProblems(definition).map((x) => [x.field, x.message]));
    setErrors(problems);
    return Object.keys(problems).length ? null : definition;
  };
  const onSave = () => {
    const definition = checked();
    if (!definition) return;
    void save.trigger(definition).then(() => {
      showSuccessToast(`Draft of version ${nextVersion} saved`);
      void refresh();
    }, (error: unknown) => setErrors(definitionErrorsOf(error)));
  };
  const onPublish = () => {
    const definition = checked();
    if (!definition) {
      setPublishing(false);
      return;
    }
    void publish.trigger(definition).then(() => {
      setPublishing(false);
      showSuccessToast(`Version ${nextVersion} published`);
      void refresh();
    }, (error: unknown) => setErrors(definitionErrorsOf(error)));
  };
  const invalid = Object.keys(errors).length > 0;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="questionnaire">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} fz="lg" id="questionnaire">Questionnaire: {draft ? `draft of version ${nextVersion}` : `new version ${nextVersion}`}</Title>
          {latest && <Badge variant="light">Participants now answer version {latest.version}</Badge>}
        </Group>
        <Text fz="sm" c="dimmed">
          {draft || !latest ? '' : `Started from version ${latest.version}. `}
          A published version never changes: new participants answer the latest one; study responses given under an earlier version keep it.
        </Text>
        <QuestionnaireBuilder value={value} onChange={setValue} errors={errors} />
        {invalid && <Text c="red.9" fz="sm" role="alert">The questionnaire has problems: see the fields marked above.</Text>}
        <FormError title="Draft not saved" error={save.error instanceof ApiError && save.error.fields.length ? undefined : save.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onSave} loading={save.isMutating}>Save draft</Button>
          <Button onClick={() => { publish.reset(); setPublishing(true); }}>Publish version {nextVersion}</Button>
        </Group>
      </Stack>
      {publishing && (
        <ConfirmDialog
          title={`Publish version ${nextVersion}?`}
          confirmLabel={`Publish version ${nextVersion}`}
          onConfirm={onPublish}
          onClose={() => setPublishing(false)}
          busy={publish.isMutating}
          error={publish.error}
          errorTitle="Not published"
          danger={false}
        >
          Version {nextVersion} will never change once published. Participants enrolled from now on answer it; study responses already given keep the version they were
          given under.
        </ConfirmDialog>
      )}
    </Card>
  );
}

function Versions({ project: p }: { project: AdminResearchProjectView }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="versions">
      <Title order={2} fz="lg" id="versions">Versions</Title>
      {p.versions.length === 0 ? (
        <Text c="dimmed">No version yet: build the questionnaire above and publish it before the project takes orders.</Text>
      ) : (
        <RecordTable minWidth={640} label="Questionnaire versions" columns={['Version', 'Status', 'Title', 'Questions', 'Study responses']}>
          {p.versions.map((v) => (
            <Table.Tr key={v.id}>
              <Table.Td>{v.version}</Table.Td>
              <Table.Td>{v.publishedAt ? `Published ${formatDateTime(v.publishedAt)}${v.publishedBy ? ` by ${v.publishedBy}` : ''}` : 'Draft'}</Table.Td>
              <Table.Td>{v.definition.title}</Table.Td>
              <Table.Td>{v.definition.questions.length}</Table.Td>
              <Table.Td>{formatCount(v.responses)}</Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
      )}
    </Stack>
  );
}

function CloseProject({ project: p }: { project: AdminResearchProjectView }) {
  const refresh = useRefreshAdminResearch();
  const [confirming, setConfirming] = useState(false);
  const close = useCommand(`research-project:${p.id}:close`, () => closeResearchProject(p.id));
  const onClose = () => {
    void close.trigger().then(() => {
      setConfirming(false);
      showSuccessToast(`${p.name} closed`);
      void refresh();
    }, () => undefined);
  };
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="close-project">
      <Stack gap="xs">
        <Title order={2} fz="lg" id="close-project">Close the project</Title>
        <Text fz="sm">No new orders or participants; its participants, study responses and results are kept, and responses can still be completed.</Text>
        <Group><Button color={AA_COLORS.red} variant="outline" onClick={() => { close.reset(); setConfirming(true); }}>Close project</Button></Group>
      </Stack>
      {confirming && (
        <ConfirmDialog
          title={`Close ${p.name}?`}
          confirmLabel="Close project"
          onConfirm={onClose}
          onClose={() => setConfirming(false)}
          busy={close.isMutating}
          error={close.error}
          errorTitle="Not closed"
        >
          {`${p.name} will take no new orders. Its ${formatCount(p.participants)} participants, their study responses and results are kept. This cannot be undone.`}
        </ConfirmDialog>
      )}
    </Card>
  );
}
