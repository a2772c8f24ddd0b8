import type { ReactNode } from 'react';
import { Anchor, Stack } from '@mantine/core';
import { Link } from 'react-router-dom';
import { PageHeader } from './PageHeader';

export interface ToolPageFrameProps {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  maxWidth?: number;
  children: ReactNode;
}

/** The frame of a tool page (Lab Toolbox, administration): a way back to its home, the title, the page. */
export function ToolPageFrame({ home, homeLabel, title, subtitle, actions, children, maxWidth = 1200 }: ToolPageFrameProps & { home: string; homeLabel: string }) {
  return (
    <Stack gap="lg" maw={maxWidth} w="100%">
      <Anchor component={Link} to={home} fz="sm">
        ← {homeLabel}
      </Anchor>
      <PageHeader title={title} subtitle={subtitle} actions={actions} />
      {children}
    </Stack>
  );
}
