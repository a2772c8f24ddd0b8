/**
 * The provider layout's toast container, for component tests of pages that toast a success
 * (shell/success-toast.ts shows toasts only where that layout is mounted).
 */
import { useEffect } from 'react';
import { Notifications, notifications } from '@mantine/notifications';
import { screen, within } from '@testing-library/react';
import { afterEach } from 'vitest';
import { markToastContainerMounted } from '../shell/success-toast';

export function ToastHost() {
  useEffect(() => markToastContainerMounted(), []);
  return <Notifications />;
}

afterEach(() => {
  notifications.clean();
});

/** A toast with exactly this text (Mantine renders toasts as alerts in a portal). */
export async function findToast(text: string): Promise<HTMLElement> {
  const alerts = await screen.findAllByRole('alert');
  const toast = alerts.find((a) => within(a).queryByText(text, { exact: true }));
  if (!toast) throw new Error(`No toast says "${text}"; alerts: ${alerts.map((a) => a.textContent).join(' | ')}`);
  return toast;
}
