import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { describedText } from '../../test/fields';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { SignInPage } from './SignInPage';

const renderSignIn = () => renderPage(<SignInPage portal="provider" />, { path: '/provider/login', route: '/provider/login' });
const email = () => screen.getByLabelText(/^Email/) as HTMLInputElement;
const password = () => screen.getByLabelText(/^Password/) as HTMLInputElement;

describe('SignInPage', () => {
  it('asks for the email and the password, and forgets each request once typed', async () => {
    const user = userEvent.setup();
    const sent = mockApi({});
    renderSignIn();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(describedText(email())).toContain('Enter your email address');
    expect(describedText(password())).toContain('Enter your password');
    await user.type(email(), 'physician@demo.test');
    expect(describedText(email())).not.toContain('Enter your email address');
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it("says why the server refused, and empties the password", async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /auth/login': apiRefusal(401, 'invalid_credentials', 'Invalid email or password') });
    renderSignIn();
    await user.type(email(), 'physician@demo.test');
    await user.type(password(), 'wrong-password-1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid email or password')).toBeTruthy();
    expect(screen.getByText('Could not sign you in')).toBeTruthy();
    expect(password().value).toBe('');
  });

  it('links providers without an account to the request-access page', () => {
    mockApi({});
    renderSignIn();
    expect(screen.getByRole('link', { name: 'Request access' }).getAttribute('href')).toBe('/provider/request-access');
  });

  it("puts the server's field message on the field it names", async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /auth/login': apiRefusal(400, 'validation_failed', 'Invalid request', [{ field: 'email', message: 'Email must be a valid email' }]) });
    renderSignIn();
    await user.type(email(), 'not-an-email');
    await user.type(password(), 'whatever-1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('Invalid request');
    expect(describedText(email())).toContain('Email must be a valid email');
  });
});
