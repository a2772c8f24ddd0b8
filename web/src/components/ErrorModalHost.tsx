import { useRef } from 'react';
import { closeErrorModal, useErrorModalContent, type ErrorModalContent } from '../shell/error-modal-store';
import { MessageModal } from './MessageModal';

/** Where a layout shows query failures: at the default position, or beside the sidebar. */
export function ErrorModalHost({ offsetLeftPx = 0 }: { offsetLeftPx?: number }) {
  const content = useErrorModalContent();
  // Keep the text while the modal fades out after closing.
  const shown = useRef<ErrorModalContent | null>(null);
  if (content) shown.current = content;
  return (
    <MessageModal
      opened={content !== null}
      onClose={closeErrorModal}
      title={shown.current?.heading ?? ''}
      message={shown.current?.message ?? ''}
      tone="error"
      offsetLeftPx={offsetLeftPx}
    />
  );
}
