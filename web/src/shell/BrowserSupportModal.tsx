import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { LazyModal } from '../components/LazyModal';
import { needsUnsupportedBrowserWarning, UNSUPPORTED_BROWSER_MESSAGE } from './browser-support';

const DISMISSED_KEY = 'platform.unsupportedBrowserAcknowledged';

function shouldWarn(): boolean {
  if (!needsUnsupportedBrowserWarning(navigator.userAgent, navigator.maxTouchPoints)) return false;
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY) !== 'yes';
  } catch {
    return true;
  }
}

/** Shown to desktop browsers other than Chrome; stays until OK is pressed (for this tab). */
export function BrowserSupportModal() {
  const [opened, setOpened] = useState(shouldWarn);
  const acknowledge = () => {
    try {
      window.sessionStorage.setItem(DISMISSED_KEY, 'yes');
    } catch {
      // Without storage it shows again on the next visit; that is all.
    }
    setOpened(false);
  };
  return (
    <LazyModal
      opened={opened}
      onClose={() => undefined}
      title="Unsupported browser"
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      centered
      zIndex={400}
    >
      <Text>{UNSUPPORTED_BROWSER_MESSAGE}</Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={acknowledge} data-autofocus>
          OK
        </Button>
      </Group>
    </LazyModal>
  );
}
