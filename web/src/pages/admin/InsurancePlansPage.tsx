import { useState } from 'react';
import { Badge, Button, Fieldset, Group, Paper, SegmentedControl, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ACCOUNT_NAME_MAX_LENGTH, type InsurancePlanRow } from '@platform/domain';
import { createInsurancePlan, updateInsurancePlan, useInsurancePlans, useRefreshAdmin } from '../../api/admin';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';
import { AdminPageFrame } from './AdminPageFrame';
import { onCommandError } from './errors';
import { commandError } from '../../forms/server-errors';
import { QueryState, queryFlags } from './QueryState';
import { RecordTable } from '../../components/RecordTable';

const PAYER_CODE_MAX_LENGTH = 40;

interface PlanValues {
  name: string;
  payerCode: string;
}

const planValidation = { name: (v: string) => (v.trim() ? null : 'Enter the plan name') };
const bodyOf = (v: PlanValues, isActive: boolean) => ({ name: v.name.trim(), payerCode: v.payerCode.trim() || null, isActive });

/** /admin/provider/insurance: the plans patients choose from when they order; retired plans stay listed (and can come back). */
export function InsurancePlansPage() {
  return (
    <AdminPageFrame title="Insurance plans" subtitle="The plans patients can choose when they order. A retired plan is no longer offered; orders that named it keep it.">
      <NewPlan />
      <PlanList />
    </AdminPageFrame>
  );
}

function NewPlan() {
  const refresh = useRefreshAdmin();
  const form = useForm<PlanValues>({ initialValues: { name: '', payerCode: '' }, validate: planValidation });
  const sending = useFormSubmit(form, (v) => createInsurancePlan(bodyOf(v, true)), {
    onSuccess: (plan) => {
      showSuccessToast(`Insurance plan ${plan.name} added`);
      form.reset();
      void refresh();
    },
    onError: onCommandError,
  });
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="new-plan">
      <form onSubmit={sending.onSubmit} noValidate>
        <Fieldset variant="unstyled" disabled={sending.submitting}>
          <Stack gap="md">
            <Title order={2} fz="lg" id="new-plan">
              Add a plan
            </Title>
            <Group align="flex-start" gap="sm" wrap="wrap">
              <TextInput label="Plan name" required maxLength={ACCOUNT_NAME_MAX_LENGTH} autoComplete="off" w={360} {...form.getInputProps('name')} />
              <TextInput label="Payer code" maxLength={PAYER_CODE_MAX_LENGTH} autoComplete="off" w={200} {...form.getInputProps('payerCode')} />
              <Button type="submit" mt={25} loading={sending.submitting}>
                Add plan
              </Button>
            </Group>
            <FormError title="The plan was not added" error={sending.error} message={sending.error === undefined ? undefined : commandError(sending.error)} onClose={sending.returnFocusAfter(sending.reset)} />
          </Stack>
        </Fieldset>
      </form>
    </Paper>
  );
}

type Show = 'all' | 'active' | 'retired';

function PlanList() {
  const plans = useInsurancePlans();
  const [show, setShow] = useState<Show>('all');
  const [editing, setEditing] = useState<number | null>(null);
  const all = plans.data ?? [];
  const rows = all.filter((p) => show === 'all' || (show === 'active') === p.isActive);
  return (
    <Stack gap="sm" component="section" aria-labelledby="plans-title">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} fz="lg" id="plans-title">
          Plans
        </Title>
        <SegmentedControl
          aria-label="Which plans"
          value={show}
          onChange={(v) => setShow(v as Show)}
          data={[
            { value: 'all', label: `All (${all.length})` },
            { value: 'active', label: `Active (${all.filter((p) => p.isActive).length})` },
            { value: 'retired', label: `Retired (${all.filter((p) => !p.isActive).length})` },
          ]}
        />
      </Group>
      <QueryState what="insurance plans" {...queryFlags(plans, (d) => d.length === 0)} emptyText="No insurance plans yet." onRetry={() => void plans.mutate()}>
        {rows.length === 0 ? (
          <Text c="dimmed">No {show} plans.</Text>
        ) : (
          <RecordTable minWidth={640} label="Insurance plans" columns={['Plan', 'Payer code', 'Status']} withActions>
            {rows.map((plan) =>
              editing === plan.id ? (
                <EditPlanRow key={plan.id} plan={plan} onDone={() => setEditing(null)} />
              ) : (
                <PlanRow key={plan.id} plan={plan} onEdit={() => setEditing(plan.id)} />
              ),
            )}
          </RecordTable>
        )}
      </QueryState>
    </Stack>
  );
}

function PlanRow({ plan, onEdit }: { plan: InsurancePlanRow; onEdit: () => void }) {
  const refresh = useRefreshAdmin();
  const form = useForm<PlanValues>({ initialValues: { name: plan.name, payerCode: plan.payerCode ?? '' } });
  const toggling = useFormSubmit(form, (v) => updateInsurancePlan(plan.id, bodyOf(v, !plan.isActive)), {
    onSuccess: (updated) => {
      showSuccessToast(`${updated.name} ${updated.isActive ? 'is offered again' : 'was retired'}`);
      void refresh();
    },
    onError: onCommandError,
  });
  return (
    <Table.Tr data-active={plan.isActive}>
      <Table.Td>{plan.name}</Table.Td>
      <Table.Td ff="monospace">{plan.payerCode ?? '—'}</Table.Td>
      <Table.Td>
        <Badge color={plan.isActive ? AA_COLORS.green : AA_COLORS.gray}>{plan.isActive ? 'Active' : 'Retired'}</Badge>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="default" onClick={onEdit} aria-label={`Edit ${plan.name}`}>
            Edit
          </Button>
          <Button
            size="xs"
            variant="outline"
            color={plan.isActive ? AA_COLORS.red : AA_COLORS.green}
            onClick={toggling.submit}
            loading={toggling.submitting}
            aria-label={`${plan.isActive ? 'Retire' : 'Reactivate'} ${plan.name}`}
          >
            {plan.isActive ? 'Retire' : 'Reactivate'}
          </Button>
        </Group>
        {toggling.lastError !== undefined && (
          <Text c="red.9" fz="xs" role="alert" ta="right">
            {commandError(toggling.lastError)}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

function EditPlanRow({ plan, onDone }: { plan: InsurancePlanRow; onDone: () => void }) {
  const refresh = useRefreshAdmin();
  const form = useForm<PlanValues>({ initialValues: { name: plan.name, payerCode: plan.payerCode ?? '' }, validate: planValidation });
  const saving = useFormSubmit(form, (v) => updateInsurancePlan(plan.id, bodyOf(v, plan.isActive)), {
    onSuccess: (updated) => {
      showSuccessToast(`${updated.name} saved`);
      void refresh();
      onDone();
    },
    onError: onCommandError,
  });
  // A row cannot hold a <form>: Enter saves, Escape cancels.
  const keys = (e: React.KeyboardEvent) => {
    if (e.key === 'Enter') saving.submit();
    if (e.key === 'Escape') onDone();
  };
  return (
    <Table.Tr>
      <Table.Td>
        <TextInput label="Plan name" required maxLength={ACCOUNT_NAME_MAX_LENGTH} size="xs" disabled={saving.submitting} autoFocus onKeyDown={keys} {...form.getInputProps('name')} />
      </Table.Td>
      <Table.Td>
        <TextInput label="Payer code" maxLength={PAYER_CODE_MAX_LENGTH} size="xs" disabled={saving.submitting} onKeyDown={keys} {...form.getInputProps('payerCode')} />
      </Table.Td>
      <Table.Td>
        <Badge color={plan.isActive ? AA_COLORS.green : AA_COLORS.gray}>{plan.isActive ? 'Active' : 'Retired'}</Badge>
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end" wrap="nowrap">
          <Button size="xs" variant="default" onClick={onDone} disabled={saving.submitting}>
            Cancel
          </Button>
          <Button size="xs" onClick={saving.submit} loading={saving.submitting}>
            Save
          </Button>
        </Group>
        {saving.error !== undefined && (
          <Text c="red.9" fz="xs" role="alert" ta="right">
            {commandError(saving.error)}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
