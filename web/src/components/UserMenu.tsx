import { useState } from 'react';
import { Avatar, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { SignInPortal } from '@platform/domain';
import type { StoredSessionUser } from '../session/stored-user';
import { useSignOut } from '../session/use-session-actions';
import { ChangePasswordModal } from './ChangePasswordModal';
import { TwoFactorModal } from './two-factor/TwoFactorModal';
import { KeyIcon, SignOutIcon } from './icons';

function initialsOf(user: StoredSessionUser): string {
  return `${user.firstName.charAt(0)}${user.lastName.charAt(0)}`.toUpperCase();
}

/** The signed-in person: name, change password, two-factor sign-in, sign out. */
export function UserMenu({ user, portal, compact = false, inverted = false }: {
  user: StoredSessionUser;
  portal: SignInPortal;
  compact?: boolean;
  inverted?: boolean;
}) {
  const signOut = useSignOut(portal);
  const [changingPassword, setChangingPassword] = useState(false);
  const [twoFactor, setTwoFactor] = useState(false);
  const fullName = `${user.firstName} ${user.lastName}`;
  return (
    <>
      <Menu position={compact ? 'bottom-end' : 'right-end'} withArrow shadow="md" width={240}>
        <Menu.Target>
          <UnstyledButton
            style={{ display: 'flex', flexDirection: compact ? 'row' : 'column', alignItems: 'center', gap: 6, padding: 6, borderRadius: 8 }}
          >
            <Avatar color={inverted ? 'white' : 'clinical'} variant={inverted ? 'filled' : 'light'} radius="xl" size={compact ? 34 : 40} aria-hidden="true">
              <Text fw={700} fz="sm" c="clinical.8">
                {initialsOf(user)}
              </Text>
            </Avatar>
            <VisuallyHidden>Account menu for </VisuallyHidden>
            {compact ? (
              <VisuallyHidden>{fullName}</VisuallyHidden>
            ) : (
              <Text fz={11} lh={1.2} ta="center" c={inverted ? 'white' : undefined} style={{ wordBreak: 'break-word' }}>
                {user.firstName}
                <VisuallyHidden> {user.lastName}</VisuallyHidden>
              </Text>
            )}
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Text fz="sm" fw={600} c="dark">
              {fullName}
            </Text>
            <Text fz="xs" c="dimmed" truncate>
              {user.email}
            </Text>
          </Menu.Label>
          <Menu.Divider />
          <Menu.Item leftSection={<KeyIcon size={18} />} onClick={() => setChangingPassword(true)}>
            Change password
          </Menu.Item>
          <Menu.Item leftSection={<KeyIcon size={18} />} onClick={() => setTwoFactor(true)}>
            Two-factor sign-in
          </Menu.Item>
          <Menu.Item leftSection={<SignOutIcon size={18} />} onClick={() => void signOut()}>
            Sign out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <ChangePasswordModal opened={changingPassword} onClose={() => setChangingPassword(false)} />
      <TwoFactorModal opened={twoFactor} onClose={() => setTwoFactor(false)} />
    </>
  );
}
