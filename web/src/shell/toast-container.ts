// Loaded on demand by SuccessToasts.tsx (its own chunk: a dynamic import of the package itself would keep all of it in the entry).
export { Notifications } from '@mantine/notifications';
