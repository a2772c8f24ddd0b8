/**
 * One user of the account, as its super admin sees them: who they are, their role and access in
 * this account (change role, make super admin, deactivate or activate, remove, give access again)
 * and, for support staff, the physicians they work for. Changes that cost access ask first.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  Badge, Button, Center, Divider, Group, Loader, Modal, MultiSelect, Select, SimpleGrid, Stack, Text, Title,
} from '@mantine/core';
import { ACCOUNT_ROLES, AccountRole, fullName, type AccountRole as AccountRoleT } from '@platform/domain';
import {
  addAccountAccess, addSuperAdmin, removeAccountAccess, setAccountUserActive, upsertStaffLinks, useAccountPhysicianContacts, useAccountUser,
  useRefreshAccountUsers, useSupportStaff, type ContactDetail, type ContactRow,
} from '../../api/account-users';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { Notice } from '../../components/Notice';
import { useCommand } from '../../forms/use-form-submit';
import { useFocusBack } from '../../shell/focus-back';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';
import { formatDateTime } from '../../format';

/** A refusal the panel shows in words (the server's): the others open the error modal. */
const isRefusal = (error: unknown) => error instanceof ApiError && [400, 403, 404, 409].includes(error.status);

/** The person's role and access in this account, when they have any. */
export const membershipIn = (contact: ContactRow, accountId: number) => contact.memberships.find((m) => m.accountId === accountId) ?? null;

interface Confirmation {
  title: string;
  message: ReactNode;
  confirmLabel: string;
  danger: boolean;
  run: () => Promise<void>;
}

export function AccountUserPanel({ accountId, accountName, contactId, signedInUserId, onLostOwnAccess }: {
  accountId: number;
  accountName: string;
  contactId: number;
  /** The signed-in person's user id: acting on oneself asks more carefully. */
  signedInUserId: number | null;
  /** After one's own access here ended (removed, deactivated, no longer super admin). */
  onLostOwnAccess: () => void;
}) {
  const { data: detail, error, isLoading, mutate } = useAccountUser(accountId, contactId);
  const refresh = useRefreshAccountUsers(accountId);
  const command = useCommand<() => Promise<ContactDetail>, ContactDetail>(`account-user:${accountId}:${contactId}`, (run) => run());
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const [role, setRole] = useState<string | null>(null);
  // Dismissing a refusal takes its close button away: back to the button whose change was refused.
  const focusBack = useFocusBack();

  const membership = detail ? membershipIn(detail, accountId) : null;
  const self = detail !== undefined && detail.userId !== null && detail.userId === signedInUserId;
  useEffect(() => setRole(membership?.role ?? null), [membership?.role]);

  if (!detail) {
    if (isLoading) {
      return (
        <Center py="xl" role="status" aria-label="Loading the user">
          <Loader />
        </Center>
      );
    }
    return (
      <Notice color="orange" title="This user could not be shown">
        {error instanceof ApiError && error.status === 404
          ? `They are not, or no longer, a user of ${accountName}.`
          : error instanceof ApiError && error.status === 403
            ? `Only the super admins of ${accountName} manage its users.`
            : (error?.message ?? '')}
      </Notice>
    );
  }
  const name = fullName(detail);

  /** Runs one change; its answer is the user as they now are. */
  const perform = async (run: () => Promise<ContactDetail>, done: string, { losesOwnAccess = false } = {}) => {
    let updated: ContactDetail;
    try {
      updated = await command.trigger(run);
    } catch (e) {
      if (!isRefusal(e)) reportError(e, 'Error submitting form');
      return;
    }
    await mutate(updated, { revalidate: false });
    showSuccessToast(done);
    await refresh();
    if (losesOwnAccess) onLostOwnAccess();
  };

  const ask = (c: Omit<Confirmation, 'run'>, run: () => Promise<void>) => {
    focusBack.remember();
    command.reset();
    setConfirmation({ ...c, run });
  };

  const changeRole = () => {
    if (!role || role === membership?.role) return;
    focusBack.remember();
    const next = role as AccountRoleT;
    const go = () =>
      perform(
        () => (next === AccountRole.SuperAdmin ? addSuperAdmin(accountId, contactId) : addAccountAccess(accountId, { contactId, role: next })),
        `${name} is now ${next} in ${accountName}`,
        { losesOwnAccess: self && next !== AccountRole.SuperAdmin },
      );
    if (self && next !== AccountRole.SuperAdmin) {
      ask(
        { title: 'Change your own role?', message: `As ${next} you will no longer manage the users of ${accountName}. Only another super admin can give that back.`, confirmLabel: 'Change my role', danger: true },
        go,
      );
    } else void go();
  };

  const makeSuperAdmin = () =>
    ask(
      { title: `Make ${name} a super admin?`, message: `They will manage the users of ${accountName}: add users, change roles and remove access.`, confirmLabel: 'Make super admin', danger: false },
      () => perform(() => addSuperAdmin(accountId, contactId), `${name} is now a super admin of ${accountName}`),
    );

  const deactivate = () =>
    ask(
      {
        title: self ? 'Deactivate your own access?' : `Deactivate ${name} in ${accountName}?`,
        message: self
          ? `You will no longer be able to work in ${accountName}. Only another super admin can activate you again.`
          : `They will no longer be able to work in ${accountName} until they are activated again. Their other accounts are not affected.`,
        confirmLabel: 'Deactivate',
        danger: true,
      },
      () => perform(() => setAccountUserActive(accountId, contactId, false), `${name} is deactivated in ${accountName}`, { losesOwnAccess: self }),
    );

  const activate = () => {
    focusBack.remember();
    void perform(() => setAccountUserActive(accountId, contactId, true), `${name} is active again in ${accountName}`);
  };

  const remove = () =>
    ask(
      {
        title: self ? 'Remove your own access?' : `Remove ${name} from ${accountName}?`,
        message: self
          ? `You will lose access to ${accountName} at once. Only another super admin can add you again.`
          : `They will lose access to ${accountName}. Their orders and history stay. You can give them access again later.`,
        confirmLabel: 'Remove access',
        danger: true,
      },
      () => perform(() => removeAccountAccess(accountId, contactId), `${name} no longer has access to ${accountName}`, { losesOwnAccess: self }),
    );

  const giveAccessAgain = () => {
    if (!role) return;
    focusBack.remember();
    void perform(() => addAccountAccess(accountId, { contactId, role: role as AccountRoleT }), `${name} has access to ${accountName} again`);
  };

  const busy = command.isMutating;
  const refusal = isRefusal(command.error) ? command.error : undefined;

  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Group gap="xs">
          {membership && <Badge variant="light">{membership.role}</Badge>}
          {membership && <Badge color={membership.isActive ? 'green' : 'gray'} variant="light">{membership.isActive ? 'Active' : 'Inactive'}</Badge>}
          {self && <Badge color="blue" variant="outline">You</Badge>}
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} mt="xs">
          <Field label="Email">{detail.email}</Field>
          <Field label="Phone">{detail.phone ?? '—'}</Field>
          <Field label="Title">{detail.title ?? '—'}</Field>
          <Field label="Specialty">{detail.specialty ?? '—'}</Field>
          <Field label="NPI">{detail.npi ?? '—'}</Field>
          <Field label="Last sign-in">{detail.lastLoginAt ? formatDateTime(detail.lastLoginAt) : 'Never'}</Field>
        </SimpleGrid>
        {detail.userId === null && (
          <Text fz="sm" c="dimmed">
            They have not chosen a password yet.
          </Text>
        )}
      </Stack>

      <FormError title="The change was not made" error={refusal} onClose={focusBack.after(command.reset)} />

      <Divider />
      {membership ? (
        <Stack gap="sm" component="section" aria-labelledby="user-access">
          <Title order={3} fz="md" id="user-access">
            Role and access in {accountName}
          </Title>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Select label="Role" data={ACCOUNT_ROLES} value={role} onChange={setRole} allowDeselect={false} w={240} />
            <Button variant="default" onClick={changeRole} disabled={busy || !role || role === membership.role}>
              Change role
            </Button>
          </Group>
          <Group gap="sm" wrap="wrap">
            {membership.role !== AccountRole.SuperAdmin && (
              <Button variant="light" onClick={makeSuperAdmin} disabled={busy}>
                Make super admin
              </Button>
            )}
            {membership.isActive ? (
              <Button variant="light" color="orange" onClick={deactivate} disabled={busy}>
                Deactivate in this account
              </Button>
            ) : (
              <Button variant="light" color="green" onClick={activate} loading={busy}>
                Activate in this account
              </Button>
            )}
            <Button variant="light" color="red" onClick={remove} disabled={busy}>
              Remove access
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm" component="section" aria-labelledby="user-access">
          <Title order={3} fz="md" id="user-access">
            No access to {accountName}
          </Title>
          <Text fz="sm">Give them access again with a role:</Text>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Select label="Role" placeholder="Choose" data={ACCOUNT_ROLES} value={role} onChange={setRole} allowDeselect={false} w={240} />
            <Button onClick={giveAccessAgain} disabled={!role} loading={busy}>
              Give access again
            </Button>
          </Group>
        </Stack>
      )}

      {membership?.role === AccountRole.SupportStaff && (
        <>
          <Divider />
          <StaffPhysicians accountId={accountId} contact={detail} />
        </>
      )}

      <Modal opened={confirmation !== null} onClose={() => setConfirmation(null)} title={confirmation?.title ?? ''} centered closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack gap="md">
          <Text>{confirmation?.message}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmation(null)}>
              Cancel
            </Button>
            <Button
              color={confirmation?.danger ? 'red' : undefined}
              loading={busy}
              onClick={async () => {
                await confirmation?.run();
                setConfirmation(null);
              }}
            >
              {confirmation?.confirmLabel}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text fz="sm">
      <Text span c="dimmed">
        {label}:{' '}
      </Text>
      {children}
    </Text>
  );
}

/** The physicians a support staff member works for here: whom they may order for. */
function StaffPhysicians({ accountId, contact }: { accountId: number; contact: ContactDetail }) {
  const staff = useSupportStaff(accountId);
  const physicians = useAccountPhysicianContacts(accountId);
  const refresh = useRefreshAccountUsers(accountId);
  const save = useCommand<number[], unknown>(`staff-links:${accountId}:${contact.id}`, (ids) => upsertStaffLinks(accountId, contact.id, ids));
  // Dismissing the refusal takes its close button away: back to Save physicians.
  const focusBack = useFocusBack();

  const linked = useMemo(() => {
    const row = staff.data?.find((s) => s.contactId === contact.id);
    const links = row?.physicians ?? contact.staffLinks.find((l) => l.accountId === accountId)?.physicians ?? [];
    return links;
  }, [staff.data, contact, accountId]);
  const [chosen, setChosen] = useState<string[]>([]);
  const linkedKey = linked.map((p) => p.contactId).join(',');
  useEffect(() => setChosen(linked.map((p) => String(p.contactId))), [linkedKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const options = useMemo(() => {
    const byId = new Map<string, string>();
    for (const row of physicians.data?.rows ?? []) {
      const m = membershipIn(row, accountId);
      if (m?.role === AccountRole.Physician) byId.set(String(row.id), m.isActive ? fullName(row) : `${fullName(row)} (inactive)`);
    }
    // Someone already linked stays listed, so they can be unlinked.
    for (const p of linked) if (!byId.has(String(p.contactId))) byId.set(String(p.contactId), p.name);
    return [...byId].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
  }, [physicians.data, linked, accountId]);

  const changed = chosen.slice().sort().join(',') !== linked.map((p) => String(p.contactId)).sort().join(',');
  const name = fullName(contact);

  const submit = async () => {
    try {
      await save.trigger(chosen.map(Number));
    } catch (e) {
      if (!isRefusal(e)) reportError(e, 'Error submitting form');
      return;
    }
    showSuccessToast(`Saved the physicians ${name} works for`);
    await refresh();
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="staff-physicians">
      <Title order={3} fz="md" id="staff-physicians">
        Physicians they work for
      </Title>
      <Text fz="sm" c="dimmed">
        Support staff order tests only for the physicians chosen here.
      </Text>
      {staff.isLoading && !staff.data ? (
        <Loader size="sm" aria-label="Loading the physicians they work for" />
      ) : (
        <MultiSelect
          label="Physicians"
          placeholder={chosen.length ? undefined : 'None yet: choose one or more'}
          data={options}
          value={chosen}
          onChange={setChosen}
          searchable
          clearable
          nothingFoundMessage="No physician of this account matches"
        />
      )}
      <FormError title="The physicians were not saved" error={isRefusal(save.error) ? save.error : undefined} onClose={focusBack.after(save.reset)} />
      <Group justify="flex-end">
        <Button onClick={(e) => { focusBack.remember(e.currentTarget); void submit(); }} loading={save.isMutating} disabled={!changed}>
          Save physicians
        </Button>
      </Group>
    </Stack>
  );
}
