import { useState } from 'react';
import { Button, NumberInput, Select, Table, Text } from '@mantine/core';
import { describeTarget, MAX_TARGET, TARGET_UNITS, TargetUnit, type TurnaroundTargetBody, type TurnaroundTargetView } from '@platform/domain';
import { saveTurnaroundTarget, useRefreshTurnaroundTargets, useTurnaroundTargets } from '../../api/turnaround';
import { useCommand } from '../../forms/use-form-submit';
import { serverFieldErrors, defaultFieldOf } from '../../forms/server-errors';
import { showSuccessToast } from '../../shell/success-toast';
import { AdminPageFrame } from './AdminPageFrame';
import { PerTestSettingsTable, RowRefusal } from './PerTestSettings';
import { onCommandError } from './errors';
import { QueryState, queryFlags } from './QueryState';
import { formatDateTime } from '../../format';

const UNIT_LABELS: Record<TargetUnit, string> = { [TargetUnit.Hours]: 'Hours', [TargetUnit.Days]: 'Days' };

/** /admin/provider/turnaround-targets: per test, the receipt → result time past which a sample counts as late. */
export function TurnaroundTargetsPage() {
  const targets = useTurnaroundTargets();
  return (
    <AdminPageFrame
      title="Turnaround targets"
      subtitle="Per test, how long from receipt at the lab to a result is on time. The Lab Toolbox's Turnaround dashboard and each clinic's Turnaround page count the samples past it."
    >
      <QueryState what="turnaround targets" {...queryFlags(targets, (d) => d.length === 0)} emptyText="No test reports a result." onRetry={() => void targets.mutate()}>
        <PerTestSettingsTable label="Turnaround target by test" headers={['Test', 'Target (receipt to result)', 'Unit', 'Last changed']} minWidth={720}>
          {(targets.data ?? []).map((v) => (
            <TargetRow key={`${v.testName}:${v.updatedAt ?? ''}`} view={v} />
          ))}
        </PerTestSettingsTable>
      </QueryState>
    </AdminPageFrame>
  );
}

/** One test's target, edited in place and saved on its own. */
function TargetRow({ view }: { view: TurnaroundTargetView }) {
  const refresh = useRefreshTurnaroundTargets();
  const [amount, setAmount] = useState<number | string>(view.amount ?? '');
  const [unit, setUnit] = useState<TargetUnit>(view.unit ?? TargetUnit.Days);
  const saving = useCommand(`turnaround-target:${view.testName}`, (body: TurnaroundTargetBody) => saveTurnaroundTarget(body));
  const changed = Number(amount) !== view.amount || unit !== view.unit;
  const fieldErrors = serverFieldErrors(saving.error, defaultFieldOf(['amount', 'unit'])).errors;
  const save = () => {
    void saving.trigger({ testName: view.testName as TurnaroundTargetBody['testName'], amount: Number(amount), unit }).then(
      (saved) => {
        showSuccessToast(`Turnaround target of ${saved.testName} saved: ${describeTarget(saved.amount!, saved.unit!)}`);
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
          <NumberInput
            aria-label={`Turnaround target of ${view.testName}`}
            min={1}
            max={MAX_TARGET[unit]}
            allowDecimal={false}
            value={amount}
            onChange={setAmount}
            placeholder="None set"
            w={120}
            error={fieldErrors.amount}
            description={`1–${MAX_TARGET[unit]} ${unit}`}
          />
        </Table.Td>
        <Table.Td>
          <Select
            aria-label={`Unit of the ${view.testName} target`}
            data={TARGET_UNITS.map((u) => ({ value: u, label: UNIT_LABELS[u] }))}
            value={unit}
            onChange={(v) => v && setUnit(v as TargetUnit)}
            allowDeselect={false}
            w={120}
            error={fieldErrors.unit}
          />
        </Table.Td>
        <Table.Td>
          <Text fz="sm">{view.updatedAt ? `${formatDateTime(view.updatedAt)}${view.updatedBy ? ` by ${view.updatedBy}` : ''}` : 'Never set'}</Text>
        </Table.Td>
        <Table.Td>
          <Button size="xs" onClick={save} loading={saving.isMutating} disabled={!changed || amount === ''} aria-label={`Save ${view.testName}`}>
            Save
          </Button>
        </Table.Td>
      </Table.Tr>
      <RowRefusal colSpan={5} title={`The ${view.testName} target was not saved`} error={saving.error} shown={Object.keys(fieldErrors).length === 0} onClose={() => saving.reset()} />
    </>
  );
}
