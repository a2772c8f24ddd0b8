/** The provider layout's toast container, for pages rendered alone: success toasts show only where it is mounted. */
import { useEffect } from 'react';
import { Notifications, notifications } from '@mantine/notifications';
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
