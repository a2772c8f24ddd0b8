import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { resetUserTwoFactor } from '../../api/two-factor';
import { useCommand } from '../../forms/use-form-submit';
import { ConfirmDialog } from '../ConfirmDialog';
import { MessageModal } from '../MessageModal';

/**
 * The lab's admin, on a user's detail: resets the user's second factors (a lost phone and lost
 * recovery codes). The user is emailed, signed out everywhere, and enrols again at sign-in.
 */
export function ResetTwoFactorButton({ userId, name, size = 'sm' }: { userId: number; name: string; size?: 'xs' | 'sm' }) {
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState(false);
  const reset = useCommand(`reset-two-factor-${userId}`, () => resetUserTwoFactor(userId));
  return (
    <>
      <Button size={size} variant="outline" onClick={() => setAsking(true)} aria-label={`Reset two-factor sign-in of ${name}`}>
        Reset two-factor
      </Button>
      {asking && (
        <ConfirmDialog
          title={`Reset two-factor sign-in of ${name}?`}
          confirmLabel="Reset two-factor"
          busy={reset.isMutating}
          error={reset.error}
          onClose={() => { reset.reset(); setAsking(false); }}
          onConfirm={() => void reset.trigger(undefined).then(() => { setAsking(false); setDone(true); }, () => undefined)}
        >
          <Text>
            Their authenticator app, passkeys, recovery codes and remembered devices stop working and they are signed out. They are emailed, and set up a new factor at their next
            sign-in (when one is required). Do this only once you are sure the request comes from them.
          </Text>
        </ConfirmDialog>
      )}
      <MessageModal opened={done} onClose={() => setDone(false)} title="Two-factor sign-in reset" message={`${name} was emailed and will set up a new factor.`} tone="success" />
    </>
  );
}
