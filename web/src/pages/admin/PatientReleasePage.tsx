import { useState } from 'react';
import { Button, Group, NumberInput, Select, Table, Text } from '@mantine/core';
import {
  DEFAULT_PATIENT_HOLD_DAYS, MAX_PATIENT_HOLD_DAYS, MIN_PATIENT_HOLD_DAYS, PATIENT_RELEASE_POLICIES, PatientReleasePolicy, type PatientReleasePolicyBody,
} from '@platform/domain';
import { savePatientReleasePolicy, usePatientReleasePolicies, useRefreshPatientReleasePolicies, type PatientReleasePolicyView } from '../../api/patient-release';
import { useCommand } from '../../forms/use-form-submit';
import { serverFieldErrors, defaultFieldOf } from '../../forms/server-errors';
import { showSuccessToast } from '../../shell/success-toast';
import { AdminPageFrame } from './AdminPageFrame';
import { PerTestSettingsTable, RowRefusal } from './PerTestSettings';
import { onCommandError } from './errors';
import { QueryState, queryFlags } from './QueryState';
import { formatDateTime } from '../../format';

/** /admin/provider/patient-release: per test, when a released result reaches the patient. */
export function PatientReleasePage() {
  const policies = usePatientReleasePolicies();
  return (
    <AdminPageFrame
      title="Patient release"
      subtitle="When the patient is sent a released result, per test. The ordering clinic is always told at release. “To the clinic first” holds the patient’s email until a provider of the clinic marks the result reviewed, or until the days set here have passed, whichever comes first."
    >
      <QueryState what="patient release policies" {...queryFlags(policies, (d) => d.length === 0)} emptyText="No test sends results to patients." onRetry={() => void policies.mutate()}>
        <PerTestSettingsTable
          label="Patient release by test"
          headers={['Test', 'The patient gets the result', 'Days before it goes to the patient anyway', 'Last changed']}
          minWidth={760}
        >
          {(policies.data ?? []).map((p) => (
            <PolicyRow key={`${p.testName}:${p.updatedAt ?? ''}`} view={p} />
          ))}
        </PerTestSettingsTable>
      </QueryState>
    </AdminPageFrame>
  );
}

/** One test's policy, edited in place and saved on its own. */
function PolicyRow({ view }: { view: PatientReleasePolicyView }) {
  const refresh = useRefreshPatientReleasePolicies();
  const [policy, setPolicy] = useState<PatientReleasePolicy>(view.policy);
  const [holdDays, setHoldDays] = useState<number | string>(view.holdDays);
  const saving = useCommand(`patient-release:${view.testName}`, (body: PatientReleasePolicyBody) => savePatientReleasePolicy(body));
  const clinicFirst = policy === PatientReleasePolicy.ClinicFirst;
  const changed = policy !== view.policy || Number(holdDays) !== view.holdDays;
  const fieldErrors = serverFieldErrors(saving.error, defaultFieldOf(['policy', 'holdDays'])).errors;
  const save = () => {
    const days = typeof holdDays === 'number' ? holdDays : Number.parseInt(holdDays, 10);
    void saving.trigger({ testName: view.testName as PatientReleasePolicyBody['testName'], policy, holdDays: Number.isFinite(days) ? days : DEFAULT_PATIENT_HOLD_DAYS }).then(
      (saved) => {
        showSuccessToast(`Patient release of ${saved.testName} saved`);
        void refresh();
      },
      onCommandError,
    );
  };
  return (
    <>
      <Table.Tr>
        <Table.Th scope="row" fw={600}>{view.testName}</Table.Th>
        <Table.Td>
          <Select
            aria-label={`When the patient gets the ${view.testName} result`}
            data={PATIENT_RELEASE_POLICIES.map((p) => ({ value: p, label: p }))}
            value={policy}
            onChange={(v) => v && setPolicy(v as PatientReleasePolicy)}
            allowDeselect={false}
            w={260}
            error={fieldErrors.policy}
          />
        </Table.Td>
        <Table.Td>
          <NumberInput
            aria-label={`Days before the ${view.testName} result goes to the patient anyway`}
            min={MIN_PATIENT_HOLD_DAYS}
            max={MAX_PATIENT_HOLD_DAYS}
            allowDecimal={false}
            value={holdDays}
            onChange={setHoldDays}
            disabled={!clinicFirst}
            w={110}
            error={fieldErrors.holdDays}
            description={clinicFirst ? `${MIN_PATIENT_HOLD_DAYS}–${MAX_PATIENT_HOLD_DAYS} days` : undefined}
          />
        </Table.Td>
        <Table.Td>
          <Text fz="sm">{view.custom && view.updatedAt ? `${formatDateTime(view.updatedAt)}${view.updatedBy ? ` by ${view.updatedBy}` : ''}` : 'Default'}</Text>
        </Table.Td>
        <Table.Td>
          <Group gap="xs" wrap="nowrap">
            <Button size="xs" onClick={save} loading={saving.isMutating} disabled={!changed} aria-label={`Save ${view.testName}`}>
              Save
            </Button>
          </Group>
        </Table.Td>
      </Table.Tr>
      <RowRefusal colSpan={5} title={`The ${view.testName} policy was not saved`} error={saving.error} shown={Object.keys(fieldErrors).length === 0} onClose={() => saving.reset()} />
    </>
  );
}
