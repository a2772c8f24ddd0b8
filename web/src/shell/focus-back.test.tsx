import { useState } from 'react';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useFocusBack } from './focus-back';
import { MAIN_CONTENT_ID } from './RouteAnnouncer';

let removeTheButton: () => void = () => {};

/** A page whose button opens a panel that closes itself (as a dialog does), and whose button may go later (its work done). */
function Page() {
  const focusBack = useFocusBack();
  const [open, setOpen] = useState(false);
  const [buttonShown, setButtonShown] = useState(true);
  removeTheButton = () => setButtonShown(false);
  return (
    <main id={MAIN_CONTENT_ID} tabIndex={-1}>
      <h1 tabIndex={-1}>Orders</h1>
      {buttonShown && <button type="button" onClick={(e) => { focusBack.remember(e.currentTarget); setOpen(true); }}>Sign off</button>}
      {open && <button type="button" onClick={focusBack.after(() => setOpen(false))}>Done</button>}
    </main>
  );
}

describe('useFocusBack', () => {
  it('gives the focus back to the button that led there, and to the heading when that button goes a moment later', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Page />);
    await user.click(screen.getByRole('button', { name: 'Sign off' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sign off' })));

    // The list read again: the order is signed off and its button goes with the focus on it.
    act(() => removeTheButton());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Orders' })));
  });

  it('leaves the focus where the person moved it', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Page />);
    await user.click(screen.getByRole('button', { name: 'Sign off' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sign off' })));
    screen.getByRole('main').focus();
    act(() => removeTheButton());
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });

  it('in a dialog (a drawer’s panel) whose button is gone, gives the focus to that dialog, not to the page behind it', async () => {
    function Panel() {
      const focusBack = useFocusBack();
      const [step, setStep] = useState<'ask' | 'asked' | 'done'>('ask');
      return (
        <main id={MAIN_CONTENT_ID}>
          <h1 tabIndex={-1}>Users</h1>
          <section role="dialog" aria-label="Paula Grant" tabIndex={-1}>
            {step === 'ask' && <button type="button" onClick={(e) => { focusBack.remember(e.currentTarget); setStep('asked'); }}>Give access again</button>}
            {step === 'asked' && <button type="button" onClick={focusBack.after(() => setStep('done'))}>Dismiss</button>}
          </section>
        </main>
      );
    }
    const user = userEvent.setup({ delay: null });
    render(<Panel />);
    await user.click(screen.getByRole('button', { name: 'Give access again' }));
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('dialog', { name: 'Paula Grant' })));
  });

  it('a dialog that stays mounted and animates closed: the focus left in it goes back to the button that opened it', async () => {
    function Page2() {
      const focusBack = useFocusBack();
      const [open, setOpen] = useState(false);
      return (
        <main id={MAIN_CONTENT_ID}>
          <h1 tabIndex={-1}>Reset your password</h1>
          <button type="button" onClick={() => { focusBack.remember(); setOpen(true); }}>Send reset link</button>
          {/* Closing, still on the page: the focus stays on its Close button until it goes. */}
          <section role="dialog" aria-label="Check your email" data-closing={!open}>
            <button type="button" onClick={focusBack.after(() => setOpen(false))}>Close</button>
          </section>
        </main>
      );
    }
    const user = userEvent.setup({ delay: null });
    render(<Page2 />);
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Send reset link' })));
  });
});
