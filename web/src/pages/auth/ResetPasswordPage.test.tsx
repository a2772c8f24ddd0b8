import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN_LENGTH } from '@platform/domain';
import { describedText } from '../../test/fields';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ResetPasswordPage } from './ResetPasswordPage';

const TOKEN = 'ab'.repeat(32);
const renderReset = (token = TOKEN) => renderPage(<ResetPasswordPage portal="provider" />, { path: '/provider/reset-password', route: `/provider/reset-password?token=${token}` });
const newPassword = () => screen.getByLabelText(/^New password(?! again)/) as HTMLInputElement;
const again = () => screen.getByLabelText(/^New password again/) as HTMLInputElement;

async function typeAndSave(first: string, second: string) {
  const user = userEvent.setup();
  if (first) await user.type(newPassword(), first);
  if (second) await user.type(again(), second);
  await user.click(screen.getByRole('button', { name: 'Save password' }));
  return user;
}

describe('ResetPasswordPage', () => {
  it('holds a too short password to the rule, and clears the error once it is long enough', async () => {
    mockApi({});
    renderReset();
    const user = await typeAndSave('short1', 'short1');
    expect(describedText(newPassword())).toContain(`Use at least ${PASSWORD_MIN_LENGTH} characters`);
    await user.type(newPassword(), '-and-longer');
    expect(describedText(newPassword())).not.toContain('Use at least');
  });

  it('asks for a letter and a digit', async () => {
    mockApi({});
    renderReset();
    await typeAndSave('1234567890123', '1234567890123');
    expect(describedText(newPassword())).toContain('Use at least one letter');
    await userEvent.setup().clear(newPassword());
    await typeAndSave('only-letters-here', '');
    expect(describedText(newPassword())).toContain('Use at least one digit');
  });

  it('says when the two passwords differ', async () => {
    const sent = mockApi({});
    renderReset();
    await typeAndSave('a-good-pass-42', 'not-the-same-77');
    expect(describedText(again())).toContain('The two passwords do not match');
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it("shows the server's refusal of the password on the password field", async () => {
    mockApi({
      'POST /auth/reset-password': apiRefusal(400, 'validation', 'Invalid request', [{ field: 'password', message: 'Password is too common' }]),
    });
    renderReset();
    await typeAndSave('a-good-pass-42', 'a-good-pass-42');
    await screen.findByText('Password is too common');
    expect(describedText(newPassword())).toContain('Password is too common');
  });

  it("shows the server's own sentence when it refuses the link", async () => {
    mockApi({ 'POST /auth/reset-password': apiRefusal(400, 'invalid_token', 'This reset link is invalid or has expired.') });
    renderReset();
    await typeAndSave('a-good-pass-42', 'a-good-pass-42');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This reset link is invalid or has expired.');
    expect(screen.getByRole('link', { name: 'Request a new link' })).toBeTruthy();
  });

  it('changes the password and says so', async () => {
    const sent = mockApi({ 'POST /auth/reset-password': { status: 204 } });
    renderReset();
    await typeAndSave('a-good-pass-42', 'a-good-pass-42');
    await screen.findByRole('heading', { name: 'Password changed' });
    expect(sent.find((r) => r.path === '/auth/reset-password')?.body).toEqual({ token: TOKEN, password: 'a-good-pass-42' });
  });
});
