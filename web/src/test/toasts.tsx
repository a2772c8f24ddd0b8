/**
 * The provider layout's toast container, for component tests of pages that toast a success
 * (shell/success-toast.ts shows toasts only where that layout is mounted).
 */
import { useEffect } from 'react';
import { Notifications, notifications } from '@mantine/notifications';
import { screen, within } from '@testing-library/react';
import { markToastContainerMounted } from '../shell/success-toast';

export function ToastHost() {
  useEffect(() => {
    const unmark = markToastContainerMounted();
    return () => {
      unmark();
      // The toasts live in a module-wide store: the next test starts with none.
      notifications.clean();
    };
  }, []);
  return <Notifications />;
}

/** A toast with exactly this text (Mantine renders toasts as alerts in a portal). */
export async function findToast(text: string): Promise<HTMLElement> {
  const alerts = await screen.findAllByRole('alert');
  const toast = alerts.find((a) => within(a).queryByText(text, { exact: true }));
  if (!toast) throw new Error(`No toast says "${text}"; alerts: ${alerts.map((a) => a.textContent).join(' | ')}`);
  return toast;
}
