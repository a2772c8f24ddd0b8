/**
 * One provider user (GET admin/contacts/{id}): who they are, whether they can sign in, their
 * accounts and roles, and for support staff the physicians they work for in each account. Every
 * command answers the contact as it now is; the page shows that at once and reads the lists again.
 */
import { useState } from 'react';
import { Anchor, Badge, Button, Card, Group, MultiSelect, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import {
  ACCOUNT_ROLES, AccessStatus, AccountRole, fullName, isValidNpi, type ContactDetail, type ContactMembership,
} from '@platform/domain';
import {
  activateDeactivate, addAccountAccess, addSuperAdmin, PICKER_PAGE_SIZE, removeAccountAccess, setContactNpi, upsertStaffLinks, useContact, useContacts, useRefreshAdmin,
  useSupportStaff,
} from '../../api/admin';
import { Notice } from '../../components/Notice';
import { useCommand } from '../../forms/use-form-submit';
import { useFocusBack } from '../../shell/focus-back';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';
import { AccountSelect, type AccountOption } from './AccountSelect';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ResetTwoFactorButton } from '../../components/two-factor/ResetTwoFactorButton';
import { onCommandError } from './errors';
import { commandError } from '../../forms/server-errors';
import { ADMIN_PATHS } from './paths';
import { QueryState, queryFlags } from './QueryState';
import { ACCESS_COLORS, signInState } from './user-status';
import { RecordTable } from '../../components/RecordTable';
import { formatDateTime } from '../../format';

interface Confirming {
  title: string;
  body: string;
  confirmLabel: string;
  key: string;
  run: () => Promise<ContactDetail>;
  done: string;
}

export function UserDetail({ contactId }: { contactId: number }) {
  const contact = useContact(contactId);
  const refresh = useRefreshAdmin();
  const [message, setMessage] = useState<{ color: 'green' | 'red'; text: string } | null>(null);
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const command = useCommand('admin:contact-command', (run: () => Promise<ContactDetail>) => run());
  // A refusal's close button and the confirmation dialog take the focused control with them: back to
  // the button pressed, or the page's heading while that is busy (confirmed) or gone (access removed).
  const focusBack = useFocusBack();

  /** Runs one command; true when it was done. */
  const act = async (key: string, run: () => Promise<ContactDetail>, done: string): Promise<boolean> => {
    setMessage(null);
    setBusyKey(key);
    try {
      const detail = await command.trigger(run);
      await contact.mutate(detail, { revalidate: false });
      showSuccessToast(done);
      void refresh();
      return true;
    } catch (error) {
      onCommandError(error);
      setMessage({ color: 'red', text: commandError(error) });
      return false;
    } finally {
      setBusyKey(null);
    }
  };

  /** A button's command, remembering the button for when its refusal is dismissed. */
  const actFrom = (key: string, run: () => Promise<ContactDetail>, done: string) => {
    focusBack.remember();
    return act(key, run, done);
  };
  const confirm = (next: Confirming) => {
    focusBack.remember();
    setConfirming(next);
  };
  const closeConfirm = focusBack.after(() => setConfirming(null));

  const c = contact.data;
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={ADMIN_PATHS.users} fz="sm">
        ← All provider users
      </Anchor>
      <QueryState what="user" {...queryFlags(contact, () => false)} emptyText="" onRetry={() => void contact.mutate()}>
        {c && (
          <>
            <Person c={c} />
            {message && <Notice color={message.color} onClose={focusBack.after(() => setMessage(null))}>{message.text}</Notice>}
            <NpiEditor key={c.npi ?? ''} c={c} busy={busyKey === 'npi'} onSave={(npi) => void actFrom('npi', () => setContactNpi(c.id, npi), npi ? `NPI of ${fullName(c)} saved` : `NPI of ${fullName(c)} cleared`)} />
            <SignIn
              c={c}
              busy={busyKey === 'user'}
              onActivate={() => void actFrom('user', () => activateDeactivate({ contactId: c.id, active: true, accountId: null }), `${fullName(c)} can sign in again`)}
              onDeactivate={() =>
                confirm({
                  title: `Deactivate ${fullName(c)}?`,
                  body: 'They can no longer sign in to any account, and any session they have ends now. Their orders and history stay.',
                  confirmLabel: 'Deactivate user',
                  key: 'user',
                  run: () => activateDeactivate({ contactId: c.id, active: false, accountId: null }),
                  done: `${fullName(c)} was deactivated`,
                })
              }
            />
            <Memberships c={c} busyKey={busyKey} act={actFrom} confirm={confirm} />
            {c.memberships
              .filter((m) => m.role === AccountRole.SupportStaff)
              .map((m) => (
                <StaffLinks key={m.accountId} c={c} membership={m} />
              ))}
          </>
        )}
      </QueryState>
      {confirming && (
        <ConfirmDialog
          title={confirming.title}
          confirmLabel={confirming.confirmLabel}
          busy={busyKey === confirming.key}
          onClose={closeConfirm}
          onConfirm={() => {
            const { key, run, done } = confirming;
            closeConfirm();
            void act(key, run, done);
          }}
        >
          {confirming.body}
        </ConfirmDialog>
      )}
    </Stack>
  );
}

/** The provider's NPI, set or corrected here (a Physician orders under it; one NPI, one person). */
function NpiEditor({ c, busy, onSave }: { c: ContactDetail; busy: boolean; onSave: (npi: string | null) => void }) {
  const [value, setValue] = useState(c.npi ?? '');
  const typed = value.trim();
  const problem = typed && !isValidNpi(typed) ? 'NPI must be a valid 10-digit National Provider Identifier' : null;
  return (
    <Paper withBorder p="lg" component="section" aria-label="NPI">
      <form onSubmit={(e) => { e.preventDefault(); if (!problem) onSave(typed || null); }} noValidate>
        <Group align="flex-end" gap="sm">
          <TextInput
            label="NPI"
            description="The 10-digit National Provider Identifier their orders name"
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            error={problem}
            maxLength={10}
            inputMode="numeric"
            autoComplete="off"
            w={260}
          />
          <Button type="submit" variant="default" loading={busy} disabled={typed === (c.npi ?? '') || Boolean(problem)}>
            Save NPI
          </Button>
        </Group>
      </form>
    </Paper>
  );
}

function Person({ c }: { c: ContactDetail }) {
  const items: [string, string | null][] = [
    ['Email', c.email],
    ['Phone', c.phone],
    ['Title', c.title],
    ['Specialty', c.specialty],
    ['NPI', c.npi],
    ['Practice named when asking', c.requestedAccountName],
    ['Asked / added', formatDateTime(c.createdAt)],
    ['Decided', c.decidedAt ? formatDateTime(c.decidedAt) : null],
    ['Last sign-in', c.lastLoginAt ? formatDateTime(c.lastLoginAt) : 'Never'],
  ];
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="user-name">
      <Stack gap="sm">
        <Group gap="sm">
          <Title order={2} fz="xl" id="user-name">
            {fullName(c)}
          </Title>
          <Badge color={ACCESS_COLORS[c.accessStatus]}>{c.accessStatus}</Badge>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="xs" component="dl" style={{ margin: 0 }}>
          {items.map(([term, value]) => (
            <div key={term}>
              <Text component="dt" fz="xs" c="dimmed">
                {term}
              </Text>
              <Text component="dd" fz="sm" m={0}>
                {value || '—'}
              </Text>
            </div>
          ))}
        </SimpleGrid>
        {c.decisionReason && (
          <Text fz="sm">
            <b>Reason given:</b> {c.decisionReason}
          </Text>
        )}
        {c.requestNote && (
          <Text fz="sm">
            <b>Their note:</b> {c.requestNote}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function SignIn({ c, busy, onActivate, onDeactivate }: { c: ContactDetail; busy: boolean; onActivate: () => void; onDeactivate: () => void }) {
  const state = signInState(c);
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="sign-in-title">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm">
          <Title order={3} fz="md" id="sign-in-title">
            Sign-in
          </Title>
          <Badge color={state.color}>{state.label}</Badge>
        </Group>
        {c.userId === null ? (
          <Text fz="sm" c="dimmed">
            {c.accessStatus === AccessStatus.Pending ? (
              <>
                Waiting for approval:{' '}
                <Anchor component={Link} to={ADMIN_PATHS.approve}>
                  decide on the approvals page
                </Anchor>
              </>
            ) : (
              'Access was denied: they cannot sign in.'
            )}
          </Text>
        ) : (
          <Group gap="sm">
            {c.userActive ? (
              <Button color={AA_COLORS.red} variant="outline" onClick={onDeactivate} loading={busy}>
                Deactivate user
              </Button>
            ) : (
              <Button color={AA_COLORS.green} onClick={onActivate} loading={busy}>
                Activate user
              </Button>
            )}
            {c.userActive && <ResetTwoFactorButton userId={c.userId} name={`${c.firstName} ${c.lastName}`} />}
          </Group>
        )}
      </Group>
    </Card>
  );
}

function Memberships({ c, busyKey, act, confirm }: {
  c: ContactDetail;
  busyKey: string | null;
  act: (key: string, run: () => Promise<ContactDetail>, done: string) => Promise<boolean>;
  confirm: (c: Confirming) => void;
}) {
  const [account, setAccount] = useState<AccountOption | null>(null);
  const [role, setRole] = useState<AccountRole | null>(c.title === 'Physician' ? AccountRole.Physician : AccountRole.SupportStaff);
  const name = fullName(c);
  const add = async () => {
    if (!account || !role) return;
    const ok = await act('add', () => addAccountAccess({ contactId: c.id, accountId: account.id, role }), `${name} may now act in ${account.name} as ${role}`);
    if (ok) setAccount(null);
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="accounts-title">
      <Title order={3} fz="md" id="accounts-title">
        Accounts and roles
      </Title>
      {c.memberships.length === 0 ? (
        <Text c="dimmed">No account access.</Text>
      ) : (
        <RecordTable minWidth={760} label="Accounts and roles" columns={['Account', 'Role', 'Access']} withActions>
          {c.memberships.map((m) => {
            const key = (what: string) => `${what}:${m.accountId}`;
            return (
              <Table.Tr key={m.accountId}>
                <Table.Td fw={600} fz="sm">{m.accountName}</Table.Td>
                <Table.Td fz="sm">{m.role}</Table.Td>
                <Table.Td>
                  <Badge color={m.isActive ? AA_COLORS.green : AA_COLORS.orange}>{m.isActive ? 'Active' : 'Inactive'}</Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="wrap">
                    {m.role !== AccountRole.SuperAdmin && (
                      <Button
                        size="xs"
                        variant="default"
                        loading={busyKey === key('super')}
                        disabled={busyKey !== null}
                        onClick={() => void act(key('super'), () => addSuperAdmin({ contactId: c.id, accountId: m.accountId }), `${name} is a super admin of ${m.accountName}`)}
                        aria-label={`Make super admin of ${m.accountName}`}
                      >
                        Make super admin
                      </Button>
                    )}
                    {m.isActive ? (
                      <Button
                        size="xs"
                        variant="outline"
                        color={AA_COLORS.orange}
                        loading={busyKey === key('active')}
                        disabled={busyKey !== null}
                        onClick={() =>
                          confirm({
                            title: `Deactivate ${name} in ${m.accountName}?`,
                            body: `They can no longer act in ${m.accountName}; their other accounts are not affected.`,
                            confirmLabel: 'Deactivate in account',
                            key: key('active'),
                            run: () => activateDeactivate({ contactId: c.id, active: false, accountId: m.accountId }),
                            done: `${name} was deactivated in ${m.accountName}`,
                          })
                        }
                        aria-label={`Deactivate in ${m.accountName}`}
                      >
                        Deactivate
                      </Button>
                    ) : (
                      <Button
                        size="xs"
                        variant="outline"
                        color={AA_COLORS.green}
                        loading={busyKey === key('active')}
                        disabled={busyKey !== null}
                        onClick={() => void act(key('active'), () => activateDeactivate({ contactId: c.id, active: true, accountId: m.accountId }), `${name} may act in ${m.accountName} again`)}
                        aria-label={`Activate in ${m.accountName}`}
                      >
                        Activate
                      </Button>
                    )}
                    <Button
                      size="xs"
                      variant="subtle"
                      color={AA_COLORS.red}
                      loading={busyKey === key('remove')}
                      disabled={busyKey !== null}
                      onClick={() =>
                        confirm({
                          title: `Remove ${name}'s access to ${m.accountName}?`,
                          body: `They lose their role in ${m.accountName}. You can add the access again later.`,
                          confirmLabel: 'Remove access',
                          key: key('remove'),
                          run: () => removeAccountAccess({ contactId: c.id, accountId: m.accountId }),
                          done: `${name} no longer has access to ${m.accountName}`,
                        })
                      }
                      aria-label={`Remove access to ${m.accountName}`}
                    >
                      Remove access
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </RecordTable>
      )}
      <Paper withBorder p="md">
        <Group align="flex-end" gap="sm" wrap="wrap" role="group" aria-label="Add account access">
          <AccountSelect label="Add access to account" value={account} onChange={setAccount} exclude={c.memberships.map((m) => m.accountId)} w={320} />
          <Select label="With role" data={ACCOUNT_ROLES} value={role} onChange={(v) => setRole(v as AccountRole | null)} allowDeselect={false} w={220} comboboxProps={{ withinPortal: true }} />
          <Button onClick={() => void add()} disabled={!account || !role || busyKey !== null} loading={busyKey === 'add'}>
            Add access
          </Button>
        </Group>
      </Paper>
    </Stack>
  );
}

/** A support staff member's physicians in one account: that account's contacts with role Physician. */
function StaffLinks({ c, membership }: { c: ContactDetail; membership: ContactMembership }) {
  const { accountId, accountName } = membership;
  const contacts = useContacts({ accountId, page: 1, pageSize: PICKER_PAGE_SIZE });
  const staff = useSupportStaff(accountId);
  const refresh = useRefreshAdmin();
  const physicians = (contacts.data?.rows ?? []).filter((p) => p.memberships.some((m) => m.accountId === accountId && m.role === AccountRole.Physician));
  const linked =
    staff.data?.find((s) => s.contactId === c.id)?.physicians.map((p) => p.contactId) ??
    c.staffLinks.find((l) => l.accountId === accountId)?.physicians.map((p) => p.contactId) ??
    [];
  const [chosen, setChosen] = useState<string[] | null>(null);
  const value = chosen ?? linked.map(String);
  const save = useCommand(`admin:staff-links:${c.id}:${accountId}`, (ids: number[]) => upsertStaffLinks({ accountId, staffContactId: c.id, physicianContactIds: ids }));
  const changed = chosen !== null && (chosen.length !== linked.length || chosen.some((id) => !linked.includes(Number(id))));

  const onSave = async () => {
    try {
      await save.trigger(value.map(Number));
      showSuccessToast(`${fullName(c)} works for ${value.length} ${value.length === 1 ? 'physician' : 'physicians'} in ${accountName}`);
      setChosen(null);
      void staff.mutate();
      void refresh();
    } catch (error) {
      onCommandError(error);
    }
  };

  const loading = (contacts.isLoading && !contacts.data) || (staff.isLoading && !staff.data);
  return (
    <Paper withBorder p="md" component="section" aria-label={`Physicians in ${accountName}`}>
      <Stack gap="sm">
        <Title order={3} fz="md">
          Physicians {c.firstName} works for in {accountName}
        </Title>
        <Text fz="sm" c="dimmed">
          A support staff member orders for the physicians linked here.
        </Text>
        <QueryState what={`physicians of ${accountName}`} loading={loading} failed={Boolean(contacts.error && !contacts.data)} empty={Boolean(contacts.data) && physicians.length === 0} emptyText={`${accountName} has no physician users yet.`} onRetry={() => void contacts.mutate()}>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <MultiSelect
              label={`Physicians in ${accountName}`}
              data={physicians.map((p) => ({ value: String(p.id), label: `${fullName(p)}${p.npi ? ` (NPI ${p.npi})` : ''}` }))}
              value={value}
              onChange={setChosen}
              placeholder={value.length ? undefined : 'None linked'}
              searchable
              clearable
              w={480}
              disabled={save.isMutating}
              comboboxProps={{ withinPortal: true }}
            />
            <Button onClick={() => void onSave()} loading={save.isMutating} disabled={!changed}>
              Save physicians
            </Button>
          </Group>
          {save.error !== undefined && (
            <Text c="red.9" fz="sm" role="alert">
              {commandError(save.error)}
            </Text>
          )}
        </QueryState>
      </Stack>
    </Paper>
  );
}
