import { Select } from '@mantine/core';
import type { MeAccount } from '../api/auth';

/**
 * For people in several accounts: choose which one to work in. `onSwitch` goes to the chosen
 * account's page, which makes it the current account; the select shows the current account.
 */
export function AccountSwitcher({ accounts, currentAccountId, onSwitch }: {
  accounts: readonly MeAccount[];
  currentAccountId: number | null;
  onSwitch: (account: MeAccount) => void;
}) {
  if (accounts.length < 2) return null;
  const choose = (value: string | null) => {
    const account = accounts.find((a) => String(a.id) === value);
    if (account && account.id !== currentAccountId) onSwitch(account);
  };
  return (
    <Select
      label="Switch account"
      description="You belong to more than one account. Choose the one to work in."
      data={accounts.map((a) => ({ value: String(a.id), label: a.name }))}
      value={currentAccountId === null ? null : String(currentAccountId)}
      onChange={choose}
      allowDeselect={false}
      checkIconPosition="right"
      maw={360}
    />
  );
}
