/**
 * The lab's clock (issue 30, item 6): instants read in LAB_TIME_ZONE with the zone's abbreviation,
 * and days, weeks and months counted on that zone's calendar, across the US switch to daylight
 * saving time (Sunday 8 March 2026, 2:00 AM EST → 3:00 AM EDT in America/New_York).
 */
import { expect } from 'chai';
import {
  addLabDays, addLabMonths, formatDate, formatDateTime, formatLongDate, formatShortDate, formatTime, isLabTimeZone, labDayOf, labInputToIso, labInputValue,
  labWeekOf, registrySchedule, startOfLabDay, zoneAbbreviation,
} from '@platform/domain';
import { DEV_LAB_TIME_ZONE, loadConfig } from '@platform/server';

const NY = 'America/New_York';
const iso = (d: Date) => d.toISOString();
const hoursBetween = (a: Date, b: Date) => (b.getTime() - a.getTime()) / 3_600_000;

describe('lab clock: how instants read', () => {
  it('prints a time in the lab zone with its abbreviation, whatever the machine zone', () => {
    expect(formatDateTime('2026-11-28T19:05:00Z', NY)).to.equal('11/28/2026 2:05 PM EST');
    expect(formatDateTime('2026-07-04T16:30:00Z', NY)).to.equal('07/04/2026 12:30 PM EDT');
    expect(formatDateTime('2026-11-28T19:05:00Z', 'UTC')).to.equal('11/28/2026 7:05 PM UTC');
    expect(formatTime('2026-11-28T19:05:09Z', 'America/Los_Angeles')).to.equal('11:05:09 AM PST');
    expect(zoneAbbreviation(NY, new Date('2026-01-15T12:00:00Z'))).to.equal('EST');
  });

  it('a date is the lab’s day: 01:30 UTC is still the day before in New York', () => {
    const at = '2026-03-04T01:30:00Z';
    expect(formatDate(at, NY)).to.equal('03/03/2026');
    expect(formatDate(at, 'UTC')).to.equal('03/04/2026');
    expect(formatShortDate(at, NY)).to.equal('03/03');
    expect(formatLongDate(at, NY)).to.equal('Mar 3, 2026');
    expect(labDayOf(new Date(at), NY)).to.equal('2026-03-03');
  });

  it('nothing, or something that is not a time, reads as a dash', () => {
    expect(formatDate(null, NY)).to.equal('—');
    expect(formatDateTime(undefined, NY)).to.equal('—');
    expect(formatDateTime('not a date', NY)).to.equal('—');
  });

  it('a datetime-local input is the lab’s wall clock, whatever the browser’s zone', () => {
    expect(labInputToIso('2026-11-28T14:05', NY)).to.equal('2026-11-28T19:05:00.000Z');
    expect(labInputToIso('2026-07-04T12:30', NY)).to.equal('2026-07-04T16:30:00.000Z');
    expect(labInputToIso('', NY)).to.equal(undefined);
    expect(labInputToIso('yesterday', NY)).to.equal(undefined);
    expect(labInputValue(new Date('2026-11-28T19:05:00Z'), NY)).to.equal('2026-11-28T14:05');
  });
});

describe('lab clock: the calendar across a daylight-saving change', () => {
  it('registry follow-ups 3, 6 and 12 months after a release in the week before the switch keep its hour of the day', () => {
    // Tuesday 3 March 2026, 10:00 AM EST.
    const releasedAt = new Date('2026-03-03T15:00:00Z');
    const schedule = registrySchedule(releasedAt, NY);
    expect(schedule.map((s) => [s.months, iso(s.dueAt), formatDateTime(s.dueAt, NY)])).to.deep.equal([
      [3, '2026-06-03T14:00:00.000Z', '06/03/2026 10:00 AM EDT'],
      [6, '2026-09-03T14:00:00.000Z', '09/03/2026 10:00 AM EDT'],
      [12, '2027-03-03T15:00:00.000Z', '03/03/2027 10:00 AM EST'],
    ]);
  });

  it('the 31st of a month plus three months is the last day of the shorter month', () => {
    expect(formatDateTime(addLabMonths(new Date('2026-01-31T17:00:00Z'), 3, NY), NY)).to.equal('04/30/2026 12:00 PM EDT');
  });

  it('"after N days" across the switch is N calendar days: the same wall-clock time, one hour fewer elapsed', () => {
    // Friday 6 March 2026, 10:00 AM EST, plus 3 days: Monday 9 March, 10:00 AM EDT, 71 hours later.
    const heldAt = new Date('2026-03-06T15:00:00Z');
    const due = addLabDays(heldAt, 3, NY);
    expect(formatDateTime(due, NY)).to.equal('03/09/2026 10:00 AM EDT');
    expect(hoursBetween(heldAt, due)).to.equal(71);
    // And back in November (1 November 2026, EDT → EST): one hour more.
    const autumn = new Date('2026-10-30T14:00:00Z');
    expect(hoursBetween(autumn, addLabDays(autumn, 3, NY))).to.equal(73);
    // In UTC a day stays 24 hours.
    expect(hoursBetween(heldAt, addLabDays(heldAt, 3, 'UTC'))).to.equal(72);
  });

  it('the day of the switch is 23 hours long, and its week starts on the Monday before', () => {
    const switchDay = new Date('2026-03-08T12:00:00Z');
    const start = startOfLabDay(switchDay, NY);
    expect(iso(start)).to.equal('2026-03-08T05:00:00.000Z');
    expect(hoursBetween(start, startOfLabDay(addLabDays(switchDay, 1, NY), NY))).to.equal(23);
    // Sunday 8 March, 11:30 PM EDT (Monday 03:30 UTC): the lab's week of Monday 2 March, not of 9 March.
    const lateSunday = new Date('2026-03-09T03:30:00Z');
    expect(labWeekOf(lateSunday, NY)).to.equal('2026-03-02');
    expect(labWeekOf(lateSunday, 'UTC')).to.equal('2026-03-09');
  });
});

describe('configuration: LAB_TIME_ZONE', () => {
  it('defaults outside production to a zone that is not UTC, so tests tell the lab’s zone from a container’s', () => {
    expect(DEV_LAB_TIME_ZONE).to.equal('America/New_York');
    expect(loadConfig({ NODE_ENV: 'development' }).labTimeZone).to.equal(DEV_LAB_TIME_ZONE);
    expect(loadConfig({ NODE_ENV: 'test', LAB_TIME_ZONE: 'Europe/Berlin' }).labTimeZone).to.equal('Europe/Berlin');
  });

  it('refuses a name that is not an IANA zone, naming the variable', () => {
    for (const bad of ['EST5', 'Mars/Olympus', 'New York']) {
      expect(isLabTimeZone(bad), bad).to.equal(false);
      expect(() => loadConfig({ NODE_ENV: 'development', LAB_TIME_ZONE: bad }), bad).to.throw(/LAB_TIME_ZONE .* is not an IANA time zone name/);
    }
    expect(isLabTimeZone('America/Chicago')).to.equal(true);
  });

  it('production refuses to start without it', () => {
    const production = {
      NODE_ENV: 'production', SESSION_SECRET: 'test-only-session-secret-0123456789', SECURE_COOKIES: 'true', SHIPPING_WEBHOOK_SECRET: 'test-only-shipping-secret-0123',
      MFA_SECRET_KEY: 'test-only-mfa-secret-key-0123456789abcdef', LAB_NAME: 'Harbor Genomics Laboratory', LAB_ADDRESS: '400 Pier Road, Bayport, CA 94000',
      LAB_CLIA_NUMBER: '05D2345678', LAB_DIRECTOR: 'Ines Okafor, MD', LAB_PHONE: '+1 (415) 555-0142', LAB_EMAIL: 'results@harbor-genomics.example',
      STRIPE_SECRET_KEY: 'sk_test_testonly0123', STRIPE_PUBLISHABLE_KEY: 'pk_test_testonly0123', STRIPE_WEBHOOK_SECRET: 'whsec_testonly0123',
    };
    expect(() => loadConfig(production)).to.throw(/^Invalid configuration: LAB_TIME_ZONE must be set in production/);
    // Set, it is not what stops the start (other production settings may be).
    expect(() => loadConfig({ ...production, LAB_TIME_ZONE: 'America/Los_Angeles' })).not.to.throw(/LAB_TIME_ZONE/);
  });
});
