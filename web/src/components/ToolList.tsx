import { Anchor, Card, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';

export interface ToolEntry {
  title: string;
  description: string;
  icon: ComponentType<{ size?: number }>;
  /** Linked once its page exists. */
  to?: string;
}

/** The areas of a home page, as cards; an area without a page yet is listed but not linked. */
export function ToolList({ tools, label }: { tools: readonly ToolEntry[]; label: string }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" component="ul" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {tools.map(({ title, description, icon: Icon, to }) => (
        <Card key={title} withBorder padding="lg" component="li">
          <ThemeIcon variant="light" size={40} radius="md" mb="sm" aria-hidden="true">
            <Icon size={22} />
          </ThemeIcon>
          {to ? (
            <Anchor component={Link} to={to} fw={650}>
              {title}
            </Anchor>
          ) : (
            <Text fw={650}>{title}</Text>
          )}
          <Text fz="sm" c="dimmed" mt={4}>
            {description}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
