import { Button, Group, Text } from '@mantine/core';
import { LazyModal } from './LazyModal';

export type MessageTone = 'success' | 'error';

export interface MessageModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  message: string;
  tone: MessageTone;
  /** Moves the modal right of a sidebar so it centres on the page content. */
  offsetLeftPx?: number;
}

/** The generic message modal (SPEC §2): a close button, the text in a success colour or in red. */
export function MessageModal({ opened, onClose, title, message, tone, offsetLeftPx = 0 }: MessageModalProps) {
  return (
    <LazyModal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      styles={{ inner: { left: offsetLeftPx }, title: { fontWeight: 650 } }}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Text c={tone === 'success' ? 'green.9' : 'red.9'} data-tone={tone} role={tone === 'error' ? 'alert' : 'status'}>
        {message}
      </Text>
      <Group justify="flex-end" mt="lg">
        <Button variant={tone === 'error' ? 'default' : 'filled'} onClick={onClose}>
          Close
        </Button>
      </Group>
    </LazyModal>
  );
}
