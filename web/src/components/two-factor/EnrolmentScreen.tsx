import { useState } from 'react';
import { Button, Checkbox, Divider, Stack, Text } from '@mantine/core';
import type { Me } from '@platform/domain';
import type { FactorEnrolled } from '../../api/two-factor';
import { FormError } from '../FormError';
import { enrolPasskey, passkeyProblem, passkeysSupported } from './passkeys';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';
import { TotpEnrolment } from './TotpEnrolment';

/**
 * The first sign-in of someone who must use a second factor: set up an authenticator app (or a
 * passkey), then the ten recovery codes, once; "I have saved them" goes on into the portal.
 */
export function EnrolmentScreen({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [enrolled, setEnrolled] = useState<FactorEnrolled | null>(null);
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [rememberDevice, setRememberDevice] = useState(false);

  if (enrolled?.me) {
    const me = enrolled.me;
    return enrolled.recoveryCodes ? <RecoveryCodesPanel codes={enrolled.recoveryCodes} onDone={() => onSignedIn(me)} /> : <Button onClick={() => onSignedIn(me)}>Continue</Button>;
  }
  const withPasskey = async () => {
    setPasskeyError(null);
    setCreating(true);
    try {
      setEnrolled(await enrolPasskey('sign-in', null, rememberDevice));
    } catch (error) {
      setPasskeyError(passkeyProblem(error));
    } finally {
      setCreating(false);
    }
  };
  return (
    <Stack gap="md">
      <Text fz="sm">Your account needs a second step at sign-in. Set up an authenticator app on your phone, or a passkey or security key.</Text>
      <TotpEnrolment during="sign-in" onEnrolled={setEnrolled} />
      {passkeysSupported() && (
        <>
          <Divider label="or" labelPosition="center" />
          <FormError title="Could not create the passkey" error={passkeyError} />
          <Checkbox label="Remember this device for 30 days (passkey)" checked={rememberDevice} onChange={(e) => setRememberDevice(e.currentTarget.checked)} />
          <Button variant="default" onClick={() => void withPasskey()} loading={creating}>
            Use a passkey or security key
          </Button>
        </>
      )}
    </Stack>
  );
}
