/**
 * The SPA reads instants on the lab's clock: the zone named by index.html's meta tag (the API writes
 * it from LAB_TIME_ZONE), whatever the browser's own zone, a time followed by the zone's abbreviation.
 */
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FollowUpKind, FollowUpStatus, formatDateTime as formatDateTimeIn, type FollowUpView } from '@platform/domain';
import { FollowUpTable } from './components/SampleFollowUps';
import { formatDate, formatDateTime, formatTime, isoToLocalInput, LAB_TIME_ZONE_META, labTimeZone, localInputToIso } from './format';
import { renderPage } from './test/render';

function pageNames(zone: string): void {
  let meta = document.querySelector<HTMLMetaElement>(`meta[name="${LAB_TIME_ZONE_META}"]`);
  if (!meta) {
    meta = document.createElement('meta');
    meta.name = LAB_TIME_ZONE_META;
    document.head.append(meta);
  }
  meta.content = zone;
}

afterEach(() => document.querySelector(`meta[name="${LAB_TIME_ZONE_META}"]`)?.remove());

describe('format: the lab’s clock in the SPA', () => {
  it('reads an instant in the zone the page names, with its abbreviation', () => {
    pageNames('America/New_York');
    expect(labTimeZone()).toBe('America/New_York');
    expect(formatDateTime('2026-11-28T19:05:00Z')).toBe('11/28/2026 2:05 PM EST');
    expect(formatDateTime('2026-07-04T16:30:00Z')).toBe('07/04/2026 12:30 PM EDT');
    expect(formatTime('2026-11-28T19:05:09Z')).toBe('2:05:09 PM EST');
    // 01:30 UTC is still the evening before in New York: the lab's day.
    expect(formatDate('2026-03-04T01:30:00Z')).toBe('03/03/2026');

    pageNames('America/Los_Angeles');
    expect(formatDateTime('2026-11-28T19:05:00Z')).toBe('11/28/2026 11:05 AM PST');
  });

  it('without the tag (Vite’s dev server), or with a name that is not a zone, reads in the browser’s zone and still says which', () => {
    const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(labTimeZone()).toBe(browser);
    expect(formatDateTime('2026-11-28T19:05:00Z')).toBe(formatDateTimeIn('2026-11-28T19:05:00Z', browser));
    pageNames('Not/AZone');
    expect(labTimeZone()).toBe(browser);
  });

  it('a date-time input is the lab’s wall clock', () => {
    pageNames('America/New_York');
    expect(localInputToIso('2026-11-28T14:05')).toBe('2026-11-28T19:05:00.000Z');
    expect(localInputToIso('')).toBeUndefined();
    expect(isoToLocalInput('2026-07-04T16:30:00Z')).toBe('2026-07-04T12:30');
    expect(isoToLocalInput(null)).toBe('');
  });

  it('a page shows the lab’s day: a follow-up due at 02:00 UTC on 3 June is due on 2 June in New York', () => {
    pageNames('America/New_York');
    const due: FollowUpView = {
      id: 1, kind: FollowUpKind.RegistrySurvey, sampleId: 7, barcode: '41123456789012', status: FollowUpStatus.Scheduled, months: 3, question: null,
      dueAt: '2026-06-03T02:00:00Z', sentAt: null, remindedAt: null, answeredAt: null, answer: null, notSendableReason: null,
    };
    renderPage(<FollowUpTable followUps={[due]} label="Follow-ups" />);
    const row = screen.getAllByRole('row')[1];
    expect(within(row).getByText('06/02/2026')).toBeTruthy();
  });
});
