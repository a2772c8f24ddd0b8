/**
 * Success toasts (SPEC §2) appear only in the provider layout: it mounts the notifications
 * container and marks itself present; elsewhere a success is shown by the page itself.
 */
import { notifications } from '@mantine/notifications';

let providerLayoutMounted = 0;

export function markToastContainerMounted(): () => void {
  providerLayoutMounted += 1;
  return () => {
    providerLayoutMounted -= 1;
  };
}

export function showSuccessToast(message: string): void {
  if (providerLayoutMounted === 0) return;
  notifications.show({
    color: 'green',
    title: 'Done',
    message,
    autoClose: 5000,
    closeButtonProps: { 'aria-label': 'Close' },
    // Mantine's default description grey fails contrast on white.
    styles: { description: { color: 'var(--mantine-color-dark-6)' } },
  });
}
