import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { PASSWORD_MIN_LENGTH } from '@platform/domain';
import { changePassword } from '../api/auth';
import { ApiError } from '../api/fetcher';
import { MessageModal } from './MessageModal';

interface Outcome {
  tone: 'success' | 'error';
  title: string;
  message: string;
}

/** Change one's own password: the current one and a new one typed twice. */
export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ newPassword?: string; confirmation?: string; currentPassword?: string }>({});
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const reset = () => {
    setCurrentPassword('');
    setNewPassword('');
    setConfirmation('');
    setFieldErrors({});
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors: typeof fieldErrors = {};
    if (newPassword.length < PASSWORD_MIN_LENGTH) errors.newPassword = `Use at least ${PASSWORD_MIN_LENGTH} characters`;
    if (confirmation !== newPassword) errors.confirmation = 'The two new passwords do not match';
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setSaving(true);
    try {
      await changePassword({ currentPassword, newPassword });
      reset();
      onClose();
      setOutcome({ tone: 'success', title: 'Password changed', message: 'Your password has been changed.' });
    } catch (error) {
      if (error instanceof ApiError && error.fields.length > 0) {
        setFieldErrors({ currentPassword: error.fieldMessage('currentPassword'), newPassword: error.fieldMessage('newPassword') });
      } else {
        onClose();
        const message = error instanceof ApiError && error.serverMessage ? error.serverMessage : String((error as Error).message);
        setOutcome({ tone: 'error', title: 'Change password failed', message });
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Modal opened={opened} onClose={() => { reset(); onClose(); }} title="Change password" centered>
        <form onSubmit={submit} noValidate>
          <Stack>
            <PasswordInput
              label="Current password"
              autoComplete="current-password"
              required
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.currentTarget.value)}
              error={fieldErrors.currentPassword}
            />
            <PasswordInput
              label="New password"
              description={`At least ${PASSWORD_MIN_LENGTH} characters, with a letter and a digit`}
              autoComplete="new-password"
              required
              value={newPassword}
              onChange={(e) => setNewPassword(e.currentTarget.value)}
              error={fieldErrors.newPassword}
            />
            <PasswordInput
              label="New password again"
              autoComplete="new-password"
              required
              value={confirmation}
              onChange={(e) => setConfirmation(e.currentTarget.value)}
              error={fieldErrors.confirmation}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={saving}>
                Change password
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <MessageModal
        opened={outcome !== null}
        onClose={() => setOutcome(null)}
        title={outcome?.title ?? ''}
        message={outcome?.message ?? ''}
        tone={outcome?.tone ?? 'success'}
      />
    </>
  );
}
