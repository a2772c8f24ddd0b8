import { useState } from 'react';
import { Alert, Anchor, Button, Loader, Stack, Text } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { RESET_TOKEN_HEX_LENGTH, type AccountInvitationAccepted, type SignInPortal } from '@platform/domain';
import { acceptAccountInvitation, previewAccountInvitation } from '../../api/auth';
import { ApiError } from '../../api/fetcher';
import { withErrorHeading } from '../../api/query';
import { FormError } from '../../components/FormError';
import { signInPath, SIGN_IN_PORTAL_INFO } from '../../portals';
import { AuthCard } from './AuthCard';
import { formatLongDate } from '../../format';

export const INVALID_INVITATION = 'This invitation link is not valid. Ask the person who invited you for a new one.';
const TOKEN_SHAPE = new RegExp(`^[0-9a-f]{${RESET_TOKEN_HEX_LENGTH}}$`, 'i');

/** The server's words for a refusal it explains (a used, cancelled or expired link), otherwise a general sentence. */
function problemOf(error: unknown): string {
  if (error instanceof ApiError && error.status > 0 && error.status < 500 && error.serverMessage) return error.serverMessage;
  return `The invitation could not be opened (${(error as Error).message}). Please try again.`;
}

/**
 * …/accept-invitation?token=…: the emailed invitation to a clinic's account. It says who invites
 * whom to which account and role; accepting adds the account to the person's sign-in, or a new
 * person goes on to choose a password.
 */
export function AcceptInvitationPage({ portal }: { portal: SignInPortal }) {
  const info = SIGN_IN_PORTAL_INFO[portal];
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const usable = TOKEN_SHAPE.test(token);
  const preview = useSWR(
    usable ? ['account-invitation', token] : null,
    () => previewAccountInvitation(token),
    withErrorHeading({ revalidateOnFocus: false, shouldRetryOnError: false, errorHeading: 'Error opening the invitation', quietStatuses: [404, 410] }),
  );
  const [accepting, setAccepting] = useState(false);
  const [acceptError, setAcceptError] = useState<unknown>(undefined);
  const [accepted, setAccepted] = useState<AccountInvitationAccepted | null>(null);

  const accept = async () => {
    setAccepting(true);
    setAcceptError(undefined);
    try {
      const answer = await acceptAccountInvitation(token);
      if (answer.next === 'set-password') navigate(answer.path);
      else setAccepted(answer);
    } catch (error) {
      setAcceptError(error);
    } finally {
      setAccepting(false);
    }
  };

  if (accepted) {
    return (
      <AuthCard info={info} title="Invitation accepted">
        <Alert color="green" variant="light" role="status" title="All set">
          {accepted.message}
        </Alert>
        <Button component={Link} to={accepted.path} fullWidth>
          Go to sign-in
        </Button>
      </AuthCard>
    );
  }

  const problem = !usable ? INVALID_INVITATION : preview.error ? problemOf(preview.error) : undefined;
  const invitation = preview.data;
  return (
    <AuthCard info={info} title="Accept an invitation">
      <FormError title="This invitation cannot be used" error={problem} />
      {usable && !invitation && !preview.error && (
        <Text role="status" fz="sm">
          <Loader size="xs" mr="xs" />
          Opening the invitation…
        </Text>
      )}
      {invitation && (
        <Stack gap="md">
          <Text>
            {invitation.invitedBy ?? 'A super admin'} invites you to work in <b>{invitation.accountName}</b> as {invitation.role}.
          </Text>
          <Text fz="sm" c="dimmed">
            The invitation is for {invitation.email} and works until {formatLongDate(invitation.expiresAt)}. If you already sign in with this address, accepting adds {invitation.accountName} to your accounts; otherwise you choose a password next.
          </Text>
          <FormError title="The invitation was not accepted" error={acceptError === undefined ? undefined : problemOf(acceptError)} />
          <Button onClick={() => void accept()} loading={accepting} fullWidth>
            Accept the invitation
          </Button>
        </Stack>
      )}
      <Anchor component={Link} to={signInPath(portal)} fz="sm">
        Back to sign-in
      </Anchor>
    </AuthCard>
  );
}
