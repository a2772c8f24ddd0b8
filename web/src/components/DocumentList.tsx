import { Anchor, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { documentHref, documentsFor, type DocumentAudience } from '../documents';
import { DocumentIcon } from './icons';

/** The static PDFs for an audience, each opening in a new tab. */
export function DocumentList({ audience, title = 'Documents' }: { audience: DocumentAudience; title?: string }) {
  return (
    <Card withBorder padding="lg">
      <Title order={2} fz="h4" mb="sm">
        {title}
      </Title>
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {documentsFor(audience).map((doc) => (
          <Group key={doc.id} component="li" gap="sm" wrap="nowrap" align="flex-start">
            <ThemeIcon variant="light" size="lg" aria-hidden="true">
              <DocumentIcon size={20} />
            </ThemeIcon>
            <div>
              <Anchor href={documentHref(doc)} target="_blank" rel="noopener" fw={600}>
                {doc.title} <Text span c="dimmed" fz="xs">(PDF)</Text>
              </Anchor>
              <Text fz="sm" c="dimmed">
                {doc.description}
              </Text>
            </div>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
