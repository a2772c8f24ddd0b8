import type { ReactNode } from 'react';
import { Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { ADMIN_HOME_PATH } from '../../portals';

/** The frame of every admin page: a way back to the administration home, the title, the page. */
export function AdminPageFrame({ title, subtitle, actions, children, maxWidth = 1200 }: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  maxWidth?: number;
  children: ReactNode;
}) {
  return (
    <Stack gap="lg" maw={maxWidth} w="100%">
      <Anchor component={Link} to={ADMIN_HOME_PATH} fz="sm">
        ← Administration
      </Anchor>
      <PageHeader title={title} subtitle={subtitle} actions={actions} />
      {children}
    </Stack>
  );
}
