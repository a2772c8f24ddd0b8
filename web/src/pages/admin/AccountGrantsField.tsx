/**
 * The accounts a provider may act in, each with a role: rows of account + role, more rows on
 * demand. Row fields are named as the API names them (accounts.N.accountId, accounts.N.role), so a
 * server message about one row lands on its input.
 */
import type { ReactNode } from 'react';
import { Button, Fieldset, Group, Select, Stack, Text } from '@mantine/core';
import { ACCOUNT_ROLES, AccountRole, type AccountGrant } from '@platform/domain';
import { AccountSelect } from './AccountSelect';

export interface GrantRow {
  accountId: number | null;
  accountName: string;
  role: AccountRole | null;
}

export const emptyGrant = (role: AccountRole | null = null): GrantRow => ({ accountId: null, accountName: '', role });

/** The rows as the API takes them (rows without an account are left out). */
export const grantsOf = (rows: GrantRow[]): AccountGrant[] =>
  rows.filter((r) => r.accountId !== null && r.role !== null).map((r) => ({ accountId: r.accountId!, role: r.role! }));

/** The form's check of the rows: each row complete, at least one, no account twice. */
export function grantRowsProblem(rows: GrantRow[]): string | null {
  if (!rows.some((r) => r.accountId !== null)) return 'Choose at least one account';
  if (rows.some((r) => r.accountId !== null && r.role === null)) return 'Choose a role for every account';
  const ids = rows.filter((r) => r.accountId !== null).map((r) => r.accountId);
  if (new Set(ids).size !== ids.length) return 'Accounts must not repeat an account';
  return null;
}

/** The default role for a provider of this title: physicians are Physicians, others Support Staff. */
export const roleForTitle = (title: string | null | undefined): AccountRole => (title === 'Physician' ? AccountRole.Physician : AccountRole.SupportStaff);

export function AccountGrantsField({ legend = 'Accounts and roles', rows, onChange, errorOf, error, defaultRole, disabled }: {
  legend?: string;
  rows: GrantRow[];
  onChange: (rows: GrantRow[]) => void;
  /** The message on one row's input, by its path (accounts.N.accountId / accounts.N.role). */
  errorOf: (path: string) => ReactNode;
  /** The message about the rows as a whole. */
  error?: ReactNode;
  defaultRole?: AccountRole | null;
  disabled?: boolean;
}) {
  const set = (i: number, patch: Partial<GrantRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const chosenIds = rows.map((r) => r.accountId).filter((id): id is number => id !== null);
  return (
    <Fieldset legend={legend} disabled={disabled}>
      <Stack gap="sm">
        {rows.map((row, i) => (
          <Group key={i} align="flex-start" gap="sm" wrap="wrap">
            <AccountSelect
              label={`Account ${i + 1}`}
              value={row.accountId !== null ? { id: row.accountId, name: row.accountName } : null}
              onChange={(a) => set(i, { accountId: a?.id ?? null, accountName: a?.name ?? '' })}
              exclude={chosenIds.filter((id) => id !== row.accountId)}
              error={errorOf(`accounts.${i}.accountId`)}
              required
              w={320}
            />
            <Select
              label={`Role ${i + 1}`}
              data={ACCOUNT_ROLES}
              value={row.role}
              onChange={(v) => set(i, { role: v as AccountRole | null })}
              error={errorOf(`accounts.${i}.role`)}
              placeholder="Choose a role"
              allowDeselect={false}
              required
              w={240}
              comboboxProps={{ withinPortal: true }}
            />
            {rows.length > 1 && (
              <Button variant="subtle" color="red" mt={25} onClick={() => onChange(rows.filter((_, j) => j !== i))} aria-label={`Remove account ${i + 1}`}>
                Remove
              </Button>
            )}
          </Group>
        ))}
        {error && (
          <Text c="red.9" fz="sm" role="alert">
            {error}
          </Text>
        )}
        <Group>
          <Button variant="light" onClick={() => onChange([...rows, emptyGrant(defaultRole ?? null)])}>
            Add another account
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
