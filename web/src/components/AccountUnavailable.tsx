import { Alert, Button } from '@mantine/core';
import { useMe } from '../api/auth';

/** When the person's accounts could not be read: the error modal has said why; offer a retry. */
export function AccountUnavailable() {
  const { mutate, isValidating } = useMe();
  return (
    <Alert color="red" variant="light" title="Your accounts could not be loaded" maw={560}>
      The page needs your account details to continue.
      <div>
        <Button mt="sm" size="xs" variant="default" loading={isValidating} onClick={() => void mutate()}>
          Try again
        </Button>
      </div>
    </Alert>
  );
}
