/**
 * Clinic and research pages live under /{portal}/{accountId}/…: the account in the URL is the one
 * shown. If it is one of the person's accounts with access to the portal but not the current
 * one (the account switcher, a bookmark, a link from a colleague), it becomes current; otherwise
 * the page is not found. The URL leads: switching account is going to that account's URL.
 */
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router-dom';
import { useMe, type Me, type MeAccount } from '../api/auth';
import { showErrorModal } from '../shell/error-modal-store';
import { useSwitchAccount } from './use-session-actions';

export type AccountFromUrl =
  | { status: 'loading' }
  | { status: 'not-found' }
  | { status: 'unavailable' }
  | { status: 'ready'; me: Me; account: MeAccount; portalAccounts: MeAccount[] };

export function useAccountFromUrl(
  access: 'clinicAccess' | 'researchAccess',
  { onSwitched }: { onSwitched?: (account: MeAccount) => void } = {},
): AccountFromUrl {
  const { accountId } = useParams();
  const id = Number(accountId);
  const { data: me, error } = useMe();
  const switchAccount = useSwitchAccount();
  const switching = useRef<number | null>(null);
  const announce = useRef(onSwitched);
  announce.current = onSwitched;

  const account = me?.accounts.find((a) => a.id === id && a[access]) ?? null;
  const needsSwitch = me !== undefined && account !== null && me.currentAccount?.id !== account.id;

  useEffect(() => {
    if (!needsSwitch || switching.current === id) return;
    switching.current = id;
    switchAccount(id)
      .then((next) => {
        if (next.currentAccount) announce.current?.(next.currentAccount);
      })
      .catch((e: Error) => showErrorModal({ heading: 'Error switching account', message: e.message }))
      .finally(() => {
        switching.current = null;
      });
  }, [needsSwitch, id, switchAccount]);

  if (!Number.isSafeInteger(id) || id <= 0) return { status: 'not-found' };
  if (!me) return error ? { status: 'unavailable' } : { status: 'loading' };
  if (!account) return { status: 'not-found' };
  if (needsSwitch) return { status: 'loading' };
  return { status: 'ready', me, account, portalAccounts: me.accounts.filter((a) => a[access]) };
}
