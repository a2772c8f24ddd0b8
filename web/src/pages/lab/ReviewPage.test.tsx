import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ReviewListRow } from '@platform/domain';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ReviewPage } from './ReviewPage';

const me = { user: { id: 2, kind: 'lab', email: 'lab2@demo.test', firstName: 'Lena', lastName: 'Pipette' }, accounts: [], currentAccount: null };
const technicians = [
  { id: 1, userId: 1, name: 'Leo Bench', firstName: 'Leo', lastName: 'Bench', email: 'lab1@demo.test', active: true },
  { id: 2, userId: 2, name: 'Lena Pipette', firstName: 'Lena', lastName: 'Pipette', email: 'lab2@demo.test', active: true },
];
const plates = [{ id: 31, name: 'Run 31', status: 'Resulted', createdBy: { id: 1, name: 'Leo Bench' }, createdAt: '2026-11-20T10:00:00Z', resultedAt: '2026-11-20T12:00:00Z', sampleCount: 2, controlCount: 2 }];

function row(id: number, test: string, group: ReviewListRow['approvalGroup'], canApprove: boolean, extra: Partial<ReviewListRow> = {}): ReviewListRow {
  return {
    id, version: 1, value: group === 'covid-pcr' ? 'DETECTED' : 'High Risk', interpretation: null, status: 'In Review', test, approvalGroup: group, sampleId: id * 10,
    barcode: `6100000000${String(id).padStart(4, '0')}`, sampleStatus: 'In Testing', patient: 'Testy L.', account: 'Riverside Oncology',
    enteredBy: { id: canApprove ? 1 : 2, name: canApprove ? 'Leo Bench' : 'Lena Pipette' }, enteredAt: '2026-11-21T09:00:00Z', importJobId: 7,
    importFile: { id: 70, name: 'plate-7.csv' }, plate: null, correctionReason: null, releasedValue: null, dna: null, canApprove, cannotApprove: canApprove ? null : 'You entered this result: another lab user approves it',
    context: { extraction: null, controls: [], specimen: { sampleType: 'Buccal Swab', condition: null, conditionNote: null, collectedAt: null, receivedAt: null, testedAt: '2026-11-21T08:00:00Z', ageAtTestingHours: null }, earlier: [], changedFromLast: null },
    ...extra,
  };
}

function renderReview(route: string, routes: Record<string, MockHandler> = {}) {
  const sent = mockApi({
    'GET /auth/me': { body: me },
    'GET /lims/contact/technicians': { body: technicians },
    'GET /lab-toolbox/pcr/plates': { body: plates, headers: { 'x-total-count': '1' } },
    'GET /lab-toolbox/import-tests-review': { body: { jobId: 7, mode: 'commit', kind: 'cancer-toxicity', status: 'Completed', file: { id: 70, name: 'plate-7.csv' }, importedBy: null, importedAt: null, results: { 'In Review': 3 }, total: 3 } },
    'GET /lab-toolbox/get-review-list': { body: [], headers: { 'x-total-count': '0' } },
    ...routes,
  });
  renderPage(<ReviewPage />, { path: '/lab_toolbox/review', route });
  return sent;
}

/** Opens a select and picks one of its own options. */
async function pick(user: ReturnType<typeof userEvent.setup>, select: HTMLElement, option: string) {
  await user.click(select);
  await waitFor(() => expect(select.getAttribute('aria-controls')).toBeTruthy());
  const listbox = document.getElementById(select.getAttribute('aria-controls')!)!;
  await user.click(await within(listbox).findByRole('option', { name: option, hidden: true }));
}

const reviewListQueries = (sent: { method: string; path: string }[]) =>
  sent.filter((r) => r.method === 'GET' && r.path.startsWith('/lab-toolbox/get-review-list')).map((r) => new URLSearchParams(r.path.split('?')[1]));

describe('ReviewPage filters', () => {
  it('asks the review list for the barcode, test, person and plate chosen; clearing asks for everything again', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = renderReview('/lab_toolbox/review');
    await screen.findByText('Nothing waits for review here.');

    await user.type(screen.getByLabelText('Barcode', { selector: 'input' }), '6100');
    await pick(user, screen.getByLabelText('Test', { selector: 'input' }), 'COVID-19 Rapid');
    await pick(user, screen.getByLabelText('Entered by', { selector: 'input' }), 'Leo Bench');
    await pick(user, screen.getByLabelText('Plate', { selector: 'input' }), 'Run 31');

    await waitFor(() => {
      const last = reviewListQueries(sent).at(-1)!;
      expect(Object.fromEntries(last)).toEqual({ page: '1', pageSize: '50', barcode: '6100', test: 'COVID-19 Rapid', enteredBy: '1', plateId: '31' });
    });
    expect(await screen.findByText('Nothing in review matches these filters.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(Object.fromEntries(reviewListQueries(sent).at(-1)!)).toEqual({ page: '1', pageSize: '50' }));
  });

  it('a filtered view from a link (an import, a person) approves what it shows that the user may approve, each by its approval', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = [
      row(1, 'PROSTOX ultra', 'cancer', true),
      row(2, 'COVID-19 Rapid', 'covid-pcr', true, { importJobId: null, importFile: null, plate: { id: 31, name: 'Run 31', well: 'C1', controlsPassed: true, controlProblems: [] } }),
      row(3, 'PROSTOX ultra', 'cancer', false),
    ];
    const sent = renderReview('/lab_toolbox/review?job=7&by=1', {
      'GET /lab-toolbox/get-review-list': { body: rows, headers: { 'x-total-count': '3' } },
      'POST /lab-toolbox/approve-tests-cancer': (body) => ({ body: { approved: (body as { resultIds: number[] }).resultIds.map((resultId) => ({ resultId })) } }),
      'POST /lab-toolbox/approve-tests-covid-pcr': (body) => ({ body: { approved: (body as { resultIds: number[] }).resultIds.map((resultId) => ({ resultId })) } }),
    });
    await screen.findByText(rows[0].barcode);
    expect(Object.fromEntries(reviewListQueries(sent)[0])).toEqual({ page: '1', pageSize: '50', jobId: '7', enteredBy: '1' });
    expect(screen.getByText('Import job 7')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Choose all you may approve (2)' }));
    await user.click(screen.getByRole('button', { name: 'Approve 2' }));
    // Nothing leaves the lab before the release is signed, and the dialog says what it sends.
    const confirm = await screen.findByRole('dialog', { name: 'Sign to release 2 results' });
    expect(within(confirm).getByText(/^2 test results go to the ordering clinics now: each clinic is notified, the lab report is made, and each patient with an email on file is emailed a private link to their result\.$/)).toBeTruthy();
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
    await user.type(within(confirm).getByLabelText(/^Your password/), 'lena-s-password');
    await user.click(within(confirm).getByRole('button', { name: 'Sign and approve' }));
    await screen.findByText(/2 results released to the ordering clinics/);
    // One password entry signs every approval group of the batch.
    const approvals = sent.filter((r) => r.method === 'POST' && r.path.startsWith('/lab-toolbox/approve-tests-'));
    expect(approvals.map((r) => [r.path, r.body])).toEqual([
      ['/lab-toolbox/approve-tests-cancer', { resultIds: [1], password: 'lena-s-password' }],
      ['/lab-toolbox/approve-tests-covid-pcr', { resultIds: [2], password: 'lena-s-password' }],
    ]);
  });

  it('clicking an import file filters the list to that import', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = renderReview('/lab_toolbox/review', {
      'GET /lab-toolbox/get-review-list': { body: [row(4, 'PROSTOX ultra', 'cancer', true, { importJobId: 9, importFile: { id: 90, name: 'plate-9.csv' } })], headers: { 'x-total-count': '1' } },
    });
    await user.click(await screen.findByRole('button', { name: 'Show only the import plate-9.csv' }));
    await waitFor(() => expect(reviewListQueries(sent).at(-1)!.get('jobId')).toBe('9'));
  });
});

describe('ReviewPage focus when a message or a dialog goes away', () => {
  const heading = () => screen.getByRole('heading', { level: 1, name: 'Review and approve' });

  it('dismissing the outcome of an approval gives the focus to the page heading (the Approve button is disabled by then), not to the body', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = [row(1, 'PROSTOX ultra', 'cancer', true)];
    renderReview('/lab_toolbox/review', {
      'GET /lab-toolbox/get-review-list': { body: rows, headers: { 'x-total-count': '1' } },
      'POST /lab-toolbox/approve-tests-cancer': { body: { approved: [{ resultId: 1 }] } },
    });
    await user.click(await screen.findByRole('checkbox', { name: `Choose ${rows[0].barcode} PROSTOX ultra` }));
    await user.click(screen.getByRole('button', { name: 'Approve 1' }));
    const signing = await screen.findByRole('dialog', { name: 'Sign to release 1 result' });
    await user.type(within(signing).getByLabelText(/^Your password/), 'lena-s-password');
    await user.click(within(signing).getByRole('button', { name: 'Sign and approve' }));
    const outcome = await screen.findByTestId('review-outcome');
    await waitFor(() => expect(document.activeElement).toBe(outcome));

    // The keyboard way: Tab from the message to its close button, Enter.
    await user.tab();
    expect(document.activeElement).toBe(within(outcome).getByRole('button', { name: 'Dismiss' }));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByTestId('review-outcome')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(heading()));
    expect(document.activeElement).not.toBe(document.body);
  });

  it('cancelling the rejection dialog gives the focus back to the Reject button that opened it', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = [row(2, 'PROSTOX ultra', 'cancer', true)];
    renderReview('/lab_toolbox/review', { 'GET /lab-toolbox/get-review-list': { body: rows, headers: { 'x-total-count': '1' } } });
    await user.click(await screen.findByRole('checkbox', { name: `Choose ${rows[0].barcode} PROSTOX ultra` }));
    await user.click(screen.getByRole('button', { name: 'Reject 1' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Reject 1' })));
  });

  it('a correction and then its message, once dismissed, give the focus back to the row’s Correct button', async () => {
    const user = userEvent.setup({ delay: null });
    const released = {
      id: 5, version: 1, value: 'High Risk', test: 'PROSTOX ultra', sampleId: 50, barcode: '61000000000005', sampleStatus: 'Resulted', patient: 'Testy L.',
      account: 'Riverside Oncology', enteredBy: { id: 1, name: 'Leo Bench' }, releasedBy: { id: 2, name: 'Lena Pipette' }, releasedAt: '2026-11-21T09:00:00Z', correctionReason: null,
    };
    const sent = renderReview('/lab_toolbox/review', {
      'GET /lab-toolbox/get-cancer-toxicity-results': { body: [released], headers: { 'x-total-count': '1' } },
      'POST /lab-toolbox/results/correct': { status: 201, body: { id: 6, barcode: released.barcode, test: released.test, value: 'Low-Average Risk', releasedValue: 'High Risk', version: 2 } },
    });
    await user.click(await screen.findByRole('tab', { name: 'Released toxicity results' }));
    const correct = await screen.findByRole('button', { name: 'Correct' });
    await user.click(correct);
    await pick(user, await screen.findByLabelText('Corrected result', { selector: 'input', exact: false }), 'Low-Average Risk');
    await user.type(screen.getByLabelText('Reason for the correction', { exact: false }), 'Transcription error');
    await user.type(screen.getByLabelText(/^Your password/), 'lena-s-password');
    await user.click(screen.getByRole('button', { name: 'Sign and enter correction' }));
    const message = await screen.findByText(/entered as version 2/);
    expect(sent.filter((r) => r.method === 'POST').map((r) => [r.path, r.body])).toEqual([
      ['/lab-toolbox/results/correct', { sampleBarcode: released.barcode, testName: released.test, value: 'Low-Average Risk', reason: 'Transcription error', password: 'lena-s-password' }],
    ]);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Correct' })));

    await user.click(within(message.closest('[role="alert"]') as HTMLElement).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByText(/entered as version 2/)).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Correct' })));
  });
});

describe('ReviewPage: approving is an electronic signature', () => {
  const WRONG = { field: 'password', message: 'The password is not correct: nothing was signed' };
  const approvalsSent = (sent: { method: string; path: string; body: unknown }[]) =>
    sent.filter((r) => r.method === 'POST' && r.path.startsWith('/lab-toolbox/approve-tests-')).map((r) => [r.path, r.body]);

  async function openSigning(user: ReturnType<typeof userEvent.setup>, rows: ReviewListRow[]) {
    await user.click(await screen.findByRole('button', { name: `Choose all you may approve (${rows.length})` }));
    await user.click(screen.getByRole('button', { name: `Approve ${rows.length}` }));
    return screen.findByRole('dialog', { name: `Sign to release ${rows.length} ${rows.length === 1 ? 'result' : 'results'}` });
  }

  it('says what is signed, its meaning and who signs; the password field has the focus', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = [row(1, 'PROSTOX ultra', 'cancer', true), row(2, 'COVID-19 Rapid', 'covid-pcr', true)];
    renderReview('/lab_toolbox/review', { 'GET /lab-toolbox/get-review-list': { body: rows, headers: { 'x-total-count': '2' } } });
    const signing = await openSigning(user, rows);
    expect(within(signing).getByText('You are signing 2 results:')).toBeTruthy();
    const listed = within(within(signing).getByRole('list', { name: 'What you sign' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(listed).toEqual([`${rows[0].barcode} · PROSTOX ultra: High Risk`, `${rows[1].barcode} · COVID-19 Rapid: DETECTED`]);
    const meaning = within(signing).getByText('Meaning of this signature: Reviewed and approved for release');
    expect(getComputedStyle(meaning).fontWeight).toBe('700');
    expect(within(signing).getByText(/legally binding equivalent of your handwritten signature/)).toBeTruthy();
    expect(within(signing).getByText('Lena Pipette')).toBeTruthy();
    const password = within(signing).getByLabelText(/^Your password/) as HTMLInputElement;
    expect(password.type).toBe('password');
    expect(password.autocomplete).toBe('current-password');
    await waitFor(() => expect(document.activeElement).toBe(password));
  });

  it('a wrong password is shown on the field, the dialog stays and nothing is released; the right one then releases', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = [row(1, 'PROSTOX ultra', 'cancer', true), row(2, 'COVID-19 Rapid', 'covid-pcr', true)];
    const approve = (body: unknown) => {
      const { resultIds, password } = body as { resultIds: number[]; password: string };
      return password === 'right' ? { body: { approved: resultIds.map((resultId) => ({ resultId })) } } : apiRefusal(400, 'validation_failed', WRONG.message, [WRONG]);
    };
    const sent = renderReview('/lab_toolbox/review', {
      'GET /lab-toolbox/get-review-list': { body: rows, headers: { 'x-total-count': '2' } },
      'POST /lab-toolbox/approve-tests-cancer': approve,
      'POST /lab-toolbox/approve-tests-covid-pcr': approve,
    });
    const signing = await openSigning(user, rows);
    const password = within(signing).getByLabelText(/^Your password/) as HTMLInputElement;
    await user.type(password, 'wrong{Enter}');
    await within(signing).findByText(WRONG.message);
    // The first group proves the password: the second is not asked.
    expect(approvalsSent(sent)).toEqual([['/lab-toolbox/approve-tests-cancer', { resultIds: [1], password: 'wrong' }]]);
    expect(password.getAttribute('aria-invalid')).toBe('true');
    // The refusal is read with the field.
    expect(password.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)?.textContent)).toContain(WRONG.message);
    expect(password.value, 'the refused password is forgotten').toBe('');
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(screen.getByRole('dialog', { name: 'Sign to release 2 results' })).toBe(signing);
    expect(screen.queryByTestId('review-outcome')).toBeNull();
    expect(screen.getByText(rows[0].barcode, { selector: 'td' })).toBeTruthy();

    await user.type(password, 'right');
    await user.click(within(signing).getByRole('button', { name: 'Sign and approve' }));
    await screen.findByText(/2 results released to the ordering clinics/);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(approvalsSent(sent).slice(1)).toEqual([
      ['/lab-toolbox/approve-tests-cancer', { resultIds: [1], password: 'right' }],
      ['/lab-toolbox/approve-tests-covid-pcr', { resultIds: [2], password: 'right' }],
    ]);
  });

  it('too many wrong passwords: the refusal is said in the dialog, which stays open', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = [row(1, 'PROSTOX ultra', 'cancer', true)];
    renderReview('/lab_toolbox/review', {
      'GET /lab-toolbox/get-review-list': { body: rows, headers: { 'x-total-count': '1' } },
      'POST /lab-toolbox/approve-tests-cancer': apiRefusal(429, 'rate_limited', 'Too many wrong passwords: nothing can be signed for a while'),
    });
    const signing = await openSigning(user, rows);
    await user.type(within(signing).getByLabelText(/^Your password/), 'guess{Enter}');
    expect(await within(signing).findByText('Too many wrong passwords: nothing can be signed for a while')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Sign to release 1 result' })).toBe(signing);
    expect(screen.queryByTestId('review-outcome')).toBeNull();
  });

  it('without a password nothing is sent; Cancel sends nothing, gives the focus back to Approve and forgets what was typed', async () => {
    const user = userEvent.setup({ delay: null });
    const rows = [row(1, 'PROSTOX ultra', 'cancer', true)];
    const sent = renderReview('/lab_toolbox/review', {
      'GET /lab-toolbox/get-review-list': { body: rows, headers: { 'x-total-count': '1' } },
      'POST /lab-toolbox/approve-tests-cancer': { body: { approved: [{ resultId: 1 }] } },
    });
    let signing = await openSigning(user, rows);
    await user.click(within(signing).getByRole('button', { name: 'Sign and approve' }));
    expect(await within(signing).findByText('Enter your password to sign')).toBeTruthy();
    await user.type(within(signing).getByLabelText(/^Your password/), 'typed but not sent');
    await user.click(within(signing).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Approve 1' })));
    expect(sent.filter((r) => r.method === 'POST')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Approve 1' }));
    signing = await screen.findByRole('dialog', { name: 'Sign to release 1 result' });
    expect((within(signing).getByLabelText(/^Your password/) as HTMLInputElement).value).toBe('');
  });

  it('a correction is signed too: its meaning, and a wrong password stays on the field with the dialog open', async () => {
    const user = userEvent.setup({ delay: null });
    const released = {
      id: 5, version: 1, value: 'High Risk', test: 'PROSTOX ultra', sampleId: 50, barcode: '61000000000005', sampleStatus: 'Resulted', patient: 'Testy L.',
      account: 'Riverside Oncology', enteredBy: { id: 1, name: 'Leo Bench' }, releasedBy: { id: 2, name: 'Lena Pipette' }, releasedAt: '2026-11-21T09:00:00Z', correctionReason: null,
    };
    const sent = renderReview('/lab_toolbox/review', {
      'GET /lab-toolbox/get-cancer-toxicity-results': { body: [released], headers: { 'x-total-count': '1' } },
      'POST /lab-toolbox/results/correct': apiRefusal(400, 'validation_failed', WRONG.message, [WRONG]),
    });
    await user.click(await screen.findByRole('tab', { name: 'Released toxicity results' }));
    await user.click(await screen.findByRole('button', { name: 'Correct' }));
    const correcting = await screen.findByRole('dialog', { name: `Correct ${released.barcode} (PROSTOX ultra)` });
    expect(within(correcting).getByText('Meaning of this signature: Corrected result entered for review')).toBeTruthy();
    await pick(user, within(correcting).getByLabelText('Corrected result', { selector: 'input', exact: false }), 'Low-Average Risk');
    await user.type(within(correcting).getByLabelText('Reason for the correction', { exact: false }), 'Transcription error');
    const password = within(correcting).getByLabelText(/^Your password/) as HTMLInputElement;
    await user.type(password, 'wrong{Enter}');
    await within(correcting).findByText(WRONG.message);
    expect(sent.filter((r) => r.method === 'POST').map((r) => (r.body as { password: string }).password)).toEqual(['wrong']);
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.value).toBe('');
    expect(screen.getByRole('dialog', { name: `Correct ${released.barcode} (PROSTOX ultra)` })).toBe(correcting);
    expect(screen.queryByText(/entered as version/)).toBeNull();
  });
});
