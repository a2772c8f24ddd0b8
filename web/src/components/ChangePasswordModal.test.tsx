import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH } from '@platform/domain';
import { describedText } from '../test/fields';
import { apiRefusal, mockApi } from '../test/mock-api';
import { renderPage } from '../test/render';
import { ChangePasswordModal } from './ChangePasswordModal';

const renderModal = () => renderPage(<ChangePasswordModal opened onClose={() => {}} />);
const dialog = () => screen.getByRole('dialog', { name: 'Change password' });
const field = (name: RegExp) => within(dialog()).getByLabelText(name) as HTMLInputElement;

async function fillAndSend(current: string, next: string, confirmation: string) {
  const user = userEvent.setup();
  await screen.findByRole('dialog', { name: 'Change password' });
  if (current) await user.type(field(/^Current password/), current);
  if (next) await user.type(field(/^New password(?! again)/), next);
  if (confirmation) await user.type(field(/^New password again/), confirmation);
  await user.click(within(dialog()).getByRole('button', { name: 'Change password' }));
}

describe('ChangePasswordModal', () => {
  it('holds the new password to the rule', async () => {
    const sent = mockApi({});
    renderModal();
    await fillAndSend('demo-password-1', 'short', 'short');
    expect(describedText(field(/^New password(?! again)/))).toContain(`Use at least ${PASSWORD_MIN_LENGTH} characters`);
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('says when the two new passwords differ', async () => {
    mockApi({});
    renderModal();
    await fillAndSend('demo-password-1', 'a-good-pass-42', 'a-good-pass-43');
    expect(describedText(field(/^New password again/))).toContain('The two passwords do not match');
  });

  it("shows the server's refusal on the current password field", async () => {
    mockApi({
      'POST /auth/change-password': apiRefusal(400, 'wrong_password', 'The password was not changed', [
        { field: 'currentPassword', message: 'The current password is not correct' },
      ]),
    });
    renderModal();
    await fillAndSend('wrong-password-9', 'a-good-pass-42', 'a-good-pass-42');
    await within(dialog()).findByText('The current password is not correct');
    expect(describedText(field(/^Current password/))).toContain('The current password is not correct');
  });

  it('says what went wrong when the server fails without naming a field', async () => {
    mockApi({ 'POST /auth/change-password': apiRefusal(500, 'internal', 'Something went wrong on our side. Please try again.') });
    renderModal();
    await fillAndSend('demo-password-1', 'a-good-pass-42', 'a-good-pass-42');
    expect(await screen.findByText('Something went wrong on our side. Please try again.')).toBeTruthy();
  });
});
