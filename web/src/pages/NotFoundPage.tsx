import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { portalOfPath, signInPath } from '../portals';
import { homePathOfStoredUser } from '../session/home-path';
import { useStoredUser } from '../session/stored-user';

/** /404 and every catch-all: says so plainly and offers one way back. */
export function NotFoundPage() {
  const user = useStoredUser();
  const { pathname } = useLocation();
  const portal = portalOfPath(pathname);
  const home = homePathOfStoredUser(user, portal);
  const back = home ? { to: home, label: 'Go to your home page' } : { to: signInPath(portal ?? 'provider'), label: 'Go to sign-in' };
  return (
    <Center mih="60vh">
      <Stack align="center" gap="sm" maw={480} ta="center">
        <Text fz={64} fw={800} c="clinical.7" lh={1} aria-hidden="true">
          404
        </Text>
        <Title order={1} fz="h2">
          Page not found
        </Title>
        <Text c="dimmed">
          The page you asked for does not exist, or you do not have access to it. Check the address, or go back to where
          you started.
        </Text>
        <Button component={Link} to={back.to} mt="sm">
          {back.label}
        </Button>
      </Stack>
    </Center>
  );
}
