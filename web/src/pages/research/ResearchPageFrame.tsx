import type { ReactNode } from 'react';
import { Badge, Group, Stack, VisuallyHidden } from '@mantine/core';
import { NavLink } from 'react-router-dom';
import type { MeAccount } from '../../api/auth';
import { useIncompleteCount } from '../../api/research';
import { AccountUnavailable } from '../../components/AccountUnavailable';
import { PageHeader } from '../../components/PageHeader';
import { PageLoader } from '../../components/PageLoader';
import { researchHomePath } from '../../portals';
import { useAccountFromUrl } from '../../session/use-account-from-url';
import { NotFoundPage } from '../NotFoundPage';

export const researchPath = (accountId: number, page = '') => `${researchHomePath(accountId)}${page ? `/${page}` : ''}`;
export const participantPath = (accountId: number, patientId: number) => researchPath(accountId, `patient/${patientId}`);

/**
 * The frame of every Research Portal page (plain layout, no sidebar: SPEC §2): the account in the
 * URL must be one of the person's research accounts (else not found), a compact navigation (home,
 * order, tests) whose Tests link carries the number of incomplete participants, the title, and
 * the page once the account is known.
 */
export function ResearchPageFrame({ title, subtitle, actions, children, maxWidth = 1200 }: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  maxWidth?: number;
  children: (account: MeAccount) => ReactNode;
}) {
  const state = useAccountFromUrl('researchAccess');
  if (state.status === 'not-found') return <NotFoundPage />;
  if (state.status === 'unavailable') return <AccountUnavailable />;
  if (state.status === 'loading') return <PageLoader label="Loading your account" />;
  return (
    <Stack gap="lg" maw={maxWidth} w="100%">
      <ResearchNavigation accountId={state.account.id} />
      <PageHeader title={title} subtitle={subtitle ?? state.account.name} actions={actions} />
      {children(state.account)}
    </Stack>
  );
}

const linkStyle = ({ isActive }: { isActive: boolean }) => ({
  padding: '6px 12px',
  borderRadius: 6,
  fontWeight: 600,
  textDecoration: 'none',
  color: isActive ? 'var(--mantine-color-white)' : 'var(--mantine-color-blue-9)',
  background: isActive ? 'var(--mantine-color-blue-8)' : 'transparent',
  display: 'inline-flex',
  alignItems: 'center',
  gap: 8,
});

/** Home, Order and Tests; the badge on Tests counts the participants whose study response is incomplete. */
export function ResearchNavigation({ accountId }: { accountId: number }) {
  const incomplete = useIncompleteCount('research', accountId);
  return (
    <nav aria-label="Research Portal">
      <Group gap="xs" wrap="wrap">
        <NavLink to={researchPath(accountId)} end style={linkStyle}>
          Home
        </NavLink>
        <NavLink to={researchPath(accountId, 'order')} style={linkStyle}>
          Order
        </NavLink>
        <NavLink to={researchPath(accountId, 'tests')} style={linkStyle}>
          Tests
          {incomplete !== undefined && incomplete > 0 && (
            <Badge color="orange" variant="filled" size="sm" circle={incomplete < 10} data-testid="incomplete-badge">
              {incomplete}
              <VisuallyHidden> incomplete study {incomplete === 1 ? 'response' : 'responses'}</VisuallyHidden>
            </Badge>
          )}
        </NavLink>
      </Group>
    </nav>
  );
}
