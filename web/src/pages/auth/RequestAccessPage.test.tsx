import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { describedText } from '../../test/fields';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { RequestAccessPage } from './RequestAccessPage';

const renderRequest = () => renderPage(<RequestAccessPage />, { path: '/provider/request-access', route: '/provider/request-access' });
const field = (label: RegExp) => screen.getByLabelText(label) as HTMLInputElement;
const ANSWER = 'Thank you. If we can place you, you will get an email with the next steps.';

async function pick(user: ReturnType<typeof userEvent.setup>, select: HTMLElement, option: string) {
  await user.click(select);
  await waitFor(() => expect(select.getAttribute('aria-controls')).toBeTruthy());
  await user.click(await within(document.getElementById(select.getAttribute('aria-controls')!)!).findByRole('option', { name: option, hidden: true }));
}

/** Types into a field at once (a paste: the keystrokes are not what is tested here). */
async function fill(user: ReturnType<typeof userEvent.setup>, label: RegExp, text: string) {
  await user.click(field(label));
  await user.paste(text);
}

/** Fills the form as a physician of a practice. */
async function fillIn(user: ReturnType<typeof userEvent.setup>, { npi = '1234567893' } = {}) {
  await fill(user, /^First name/, 'Iris');
  await fill(user, /^Last name/, 'Lowe');
  await fill(user, /^Email/, 'iris.lowe@clinic.test');
  await fill(user, /^Phone/, '555-0100');
  await pick(user, screen.getByRole('combobox', { name: /^Title/ }), 'Physician');
  await pick(user, screen.getByRole('combobox', { name: /^Specialty/ }), 'Urology');
  if (npi) await fill(user, /^NPI/, npi);
  await fill(user, /^Practice name/, 'Hillside Urology');
  await fill(user, /^Note/, 'Referred by Dr. Grant');
}

describe('RequestAccessPage', () => {
  it("sends the request and shows the server's answer in place of the form", async () => {
    const user = userEvent.setup();
    const sent = mockApi({ 'POST /auth/request-access': { status: 202, body: { message: ANSWER } } });
    renderRequest();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    expect(await screen.findByText(ANSWER)).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Request access' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to sign-in' }).getAttribute('href')).toBe('/provider/login');
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({
      firstName: 'Iris', lastName: 'Lowe', email: 'iris.lowe@clinic.test', phone: '555-0100', title: 'Physician', specialty: 'Urology',
      npi: '1234567893', accountName: 'Hillside Urology', note: 'Referred by Dr. Grant',
    });
  });

  it('asks a physician for their NPI before sending', async () => {
    const user = userEvent.setup();
    const sent = mockApi({});
    renderRequest();
    await fillIn(user, { npi: '' });
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(describedText(field(/^NPI/))).toContain('NPI is required for a physician');
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
    // Another title needs none.
    await pick(user, screen.getByRole('combobox', { name: /^Title/ }), 'Nurse');
    expect(describedText(field(/^NPI/))).not.toContain('NPI is required');
  });

  it("puts a 400's messages on the fields they name", async () => {
    const user = userEvent.setup();
    mockApi({
      'POST /auth/request-access': apiRefusal(400, 'validation', 'The request is not valid', [
        { field: 'email', message: 'Email must be a valid email' },
        { field: 'accountName', message: 'Practice name must be at most 200 characters' },
        { field: 'npi', message: 'NPI must be a valid 10-digit National Provider Identifier' },
      ]),
    });
    renderRequest();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Send request' }));

    await waitFor(() => expect(describedText(field(/^Email/))).toContain('Email must be a valid email'));
    expect(describedText(field(/^Practice name/))).toContain('Practice name must be at most 200 characters');
    expect(describedText(field(/^NPI/))).toContain('NPI must be a valid 10-digit National Provider Identifier');
    // Every message found its field: no box above the button, and the form stays.
    expect(screen.queryByText('Your request was not sent')).toBeNull();
    expect(screen.getByRole('button', { name: 'Send request' })).toBeTruthy();
  });

  it('says why when the server refuses for another reason', async () => {
    const user = userEvent.setup();
    mockApi({ 'POST /auth/request-access': apiRefusal(429, 'too_many_requests', 'Too many requests. Please try again in 10 minutes.') });
    renderRequest();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Send request' }));
    expect(await screen.findByText('Too many requests. Please try again in 10 minutes.')).toBeTruthy();
    expect(screen.getByText('Your request was not sent')).toBeTruthy();
  });
});
