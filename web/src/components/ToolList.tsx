import { Anchor, Card, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import type { ComponentType } from 'react';
import { Link } from 'react-router-dom';

export interface ToolEntry {
  title: string;
  description: string;
  icon: ComponentType<{ size?: number }>;
  /** Its page: a home lists only tools that work. */
  to: string;
}

/** The areas of a home page, as cards, each a link to its page. */
export function ToolList({ tools, label }: { tools: readonly ToolEntry[]; label: string }) {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" component="ul" aria-label={label} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {tools.map(({ title, description, icon: Icon, to }) => (
        <Card key={title} withBorder padding="lg" component="li">
          <ThemeIcon variant="light" size={40} radius="md" mb="sm" aria-hidden="true">
            <Icon size={22} />
          </ThemeIcon>
          <Anchor component={Link} to={to} fw={650}>
            {title}
          </Anchor>
          <Text fz="sm" c="dimmed" mt={4}>
            {description}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}
