import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
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

  describe('the second step', () => {
    const me = { user: { id: 9, kind: 'provider', email: 'physician@demo.test', firstName: 'Paula', lastName: 'Grant' }, accounts: [], currentAccount: null };
    const signInWithPassword = async (user: ReturnType<typeof userEvent.setup>) => {
      await user.type(email(), 'physician@demo.test');
      await user.type(password(), 'right-password-1');
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
    };

    it('asks for the app\'s code after a right password, says when it is wrong, and offers a recovery code instead', async () => {
      const user = userEvent.setup();
      const sent = mockApi({
        'POST /auth/login': { body: { secondFactor: { required: true, enrol: false, methods: ['totp', 'recovery'] } } },
        'POST /auth/second-factor': (body) => (body as { code: string }).code === '123456'
          ? { body: me }
          : apiRefusal(401, 'invalid_second_factor', 'That code is not correct', [{ field: 'code', message: 'That code is not correct' }]),
      });
      renderSignIn();
      await signInWithPassword(user);
      const code = (await screen.findByLabelText(/^Authentication code/)) as HTMLInputElement;
      expect(code.getAttribute('autocomplete')).toBe('one-time-code');
      expect(code.getAttribute('inputmode')).toBe('numeric');
      await user.type(code, '654321');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      await screen.findAllByText('That code is not correct');
      expect(sent.filter((r) => r.path === '/auth/second-factor').map((r) => r.body)).toEqual([{ method: 'totp', code: '654321', rememberDevice: false }]);

      await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
      expect(screen.getByLabelText(/^Recovery code/)).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Use your authenticator app' }));
      await user.type(screen.getByLabelText(/^Authentication code/), '123456');
      await user.click(screen.getByRole('checkbox', { name: 'Remember this device for 30 days' }));
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      await vi.waitFor(() => expect(sent.filter((r) => r.path === '/auth/second-factor').at(-1)!.body).toEqual({ method: 'totp', code: '123456', rememberDevice: true }));
    });

    it('shows the enrolment screen to someone who must set up a factor: the QR code, the key to type and the code field', async () => {
      const user = userEvent.setup();
      mockApi({
        'POST /auth/login': { body: { secondFactor: { required: true, enrol: true, methods: [] } } },
        'POST /auth/second-factor/enrol/totp': { body: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP', qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>' } },
      });
      renderSignIn();
      await signInWithPassword(user);
      expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
      expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeTruthy();
      expect(screen.getByLabelText(/^Code from your app/).getAttribute('autocomplete')).toBe('one-time-code');
    });
  });
});
