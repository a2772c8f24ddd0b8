// Loaded on demand by LazyModal.tsx (its own chunk).
export { Modal } from '@mantine/core';
