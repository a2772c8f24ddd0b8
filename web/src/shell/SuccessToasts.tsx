import type { NotificationsProps } from '@mantine/notifications';
import { useNotifications } from '@mantine/notifications';
import { lazyWhenOpened } from '../components/lazy-when-opened';

/** Mantine's toast container, loaded with the first toast (its store, which queues that toast, is tiny). */
const ToastContainer = lazyWhenOpened<NotificationsProps & { opened: boolean }>(() =>
  import('./toast-container').then(({ Notifications }) => {
    function Container({ opened: _opened, ...props }: NotificationsProps & { opened: boolean }) {
      return <Notifications {...props} />;
    }
    return Container;
  }),
);

/** Where the provider layout's success toasts appear (success-toast.ts). */
export function SuccessToasts(props: NotificationsProps) {
  const { notifications, queue } = useNotifications();
  return <ToastContainer opened={notifications.length + queue.length > 0} {...props} />;
}
