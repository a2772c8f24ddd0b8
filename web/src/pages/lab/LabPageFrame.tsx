import type { ReactNode } from 'react';
import { Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { LAB_HOME_PATH } from '../../portals';

/** The frame of every Lab Toolbox tool: a way back to the toolbox, the title, the tool. */
export function LabPageFrame({ title, subtitle, actions, children, maxWidth = 1200 }: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  maxWidth?: number;
  children: ReactNode;
}) {
  return (
    <Stack gap="lg" maw={maxWidth} w="100%">
      <Anchor component={Link} to={LAB_HOME_PATH} fz="sm">
        ← Lab Toolbox
      </Anchor>
      <PageHeader title={title} subtitle={subtitle} actions={actions} />
      {children}
    </Stack>
  );
}
