import { useState } from 'react';
import { Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { changePassword } from '../api/auth';
import { ApiError } from '../api/fetcher';
import { useFormSubmit } from '../forms/use-form-submit';
import { MessageModal } from './MessageModal';
import { NewPasswordFields, newPasswordRules } from './NewPasswordFields';

interface Outcome {
  tone: 'success' | 'error';
  title: string;
  message: string;
}

const EMPTY = { currentPassword: '', newPassword: '', confirmation: '' };

/** Change one's own password: the current one and a new one typed twice. */
export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const form = useForm({ initialValues: EMPTY, validate: newPasswordRules });
  const sending = useFormSubmit(form, ({ currentPassword, newPassword }) => changePassword({ currentPassword, newPassword }), {
    onSuccess: () => {
      form.reset();
      onClose();
      setOutcome({ tone: 'success', title: 'Password changed', message: 'Your password has been changed.' });
    },
    onError: (error, placed) => {
      if (placed) return;
      onClose();
      setOutcome({ tone: 'error', title: 'Change password failed', message: error instanceof ApiError && error.serverMessage ? error.serverMessage : String((error as Error).message) });
    },
  });

  return (
    <>
      <Modal opened={opened} onClose={() => { form.reset(); onClose(); }} title="Change password" centered>
        <form onSubmit={sending.onSubmit} noValidate>
          <Stack>
            <PasswordInput label="Current password" autoComplete="current-password" required key={form.key('currentPassword')} {...form.getInputProps('currentPassword')} />
            <NewPasswordFields form={form} withRuleText />
            <Group justify="flex-end">
              <Button type="submit" loading={sending.submitting}>
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
