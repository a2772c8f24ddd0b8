import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IDLE_TIMEOUT_MS } from '../session/idle-timeout';
import { LAST_API_ACTIVITY_KEY } from '../session/last-api-activity';
import { STORED_USER_KEY } from '../session/stored-user';
import { mockApi } from '../test/mock-api';
import { renderPage } from '../test/render';
import { IdleSessionWarning } from './IdleSessionWarning';

const LAST_ACTIVITY = Date.UTC(2026, 10, 29, 9, 0, 0);

afterEach(() => {
  vi.restoreAllMocks();
  window.localStorage.clear();
});

describe('the idle-session warning', () => {
  it('signs out when the time ran out between a render and its effect (a tab asleep): no timer is left to do it', async () => {
    window.localStorage.setItem(STORED_USER_KEY, JSON.stringify({ portal: 'lab', userId: 7, kind: 'lab', email: 'lab1@demo.test', firstName: 'Lab', lastName: 'One' }));
    window.localStorage.setItem(LAST_API_ACTIVITY_KEY, String(LAST_ACTIVITY));
    // The page loads at the last activity; the warning renders half a second before the end; from the
    // render's effect on the clock reads after the end: the effect finds no time left to wait for.
    const expiresAt = LAST_ACTIVITY + IDLE_TIMEOUT_MS;
    let rendered = false;
    let calls = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => (rendered ? expiresAt + 500 : calls++ === 0 ? LAST_ACTIVITY : expiresAt - 500));
    const sent = mockApi({ 'POST /auth/logout': { status: 204 } });
    renderPage(<IdleSessionWarningProbe onRender={() => (rendered = true)} />, { path: '/lab_toolbox/review', route: '/lab_toolbox/review' });

    await screen.findByText('Elsewhere');
    expect(sent.some((r) => r.method === 'POST' && r.path === '/auth/logout')).toBe(true);
  });
});

/**
 * The warning, then a mark rendered after it in the same pass: `onRender` runs once the warning's
 * countdown has rendered and before React runs any effect, which is when the test moves the clock on.
 * (The first Date.now() before that is the last activity's first read, which the page load sets.)
 */
function IdleSessionWarningProbe({ onRender }: { onRender: () => void }) {
  return (
    <>
      <IdleSessionWarning />
      <RenderedMark onRender={onRender} />
    </>
  );
}

function RenderedMark({ onRender }: { onRender: () => void }) {
  onRender();
  return null;
}
