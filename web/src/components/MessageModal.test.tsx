import { useState } from 'react';
import { Button } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderPage } from '../test/render';
import { MessageModal } from './MessageModal';

/** A page with one button that shows a message (as the password-reset page does after sending). */
function Page() {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button onClick={() => setOpened(true)}>Send reset link</Button>
      <MessageModal opened={opened} onClose={() => setOpened(false)} title="Check your email" message="A link is on its way." tone="success" />
    </>
  );
}

describe('MessageModal (a dialog whose code loads when it first opens)', () => {
  it('gives the focus back to the button that opened it, the first time and the next', async () => {
    const user = userEvent.setup({ delay: null });
    renderPage(<Page />);
    const opener = screen.getByRole('button', { name: 'Send reset link' });
    for (const close of ['{Escape}', 'button'] as const) {
      opener.focus();
      await user.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'Check your email' });
      await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
      if (close === 'button') await user.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
      else await user.keyboard(close);
      await waitFor(() => expect(document.activeElement).toBe(opener));
    }
  });
});
