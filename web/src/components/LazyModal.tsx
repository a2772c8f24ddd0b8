import type { ModalProps } from '@mantine/core';
import { lazyWhenOpened } from './lazy-when-opened';

/** Mantine's Modal for the dialogs every page carries (errors, idle warning, browser support): loaded when one first opens. */
export const LazyModal = lazyWhenOpened<ModalProps>(() => import('./modal').then((m) => m.Modal));
