import { expect } from 'chai';
import { formatCalendarDate, formatDate, formatDateTime, formatLongDate, formatShortDate } from '@platform/domain';

describe('domain/dates: the formats of SPEC §9', () => {
  const at = '2026-03-07T15:04:00Z';
  const utc = 'UTC';
  it('MM/DD/YYYY, with its time variant', () => {
    expect(formatDate(at, utc)).to.equal('03/07/2026');
    expect(formatDateTime(at, utc)).to.equal('03/07/2026 3:04 PM UTC');
    expect(formatCalendarDate('1957-08-19')).to.equal('08/19/1957');
  });
  it('MM/DD where the year goes without saying, and MMM D, YYYY where a date is read as words', () => {
    expect(formatShortDate(at, utc)).to.equal('03/07');
    expect(formatLongDate(at, utc)).to.equal('Mar 7, 2026');
    expect(formatLongDate(null, utc)).to.equal('—');
    expect(formatShortDate(undefined, utc)).to.equal('—');
  });
});
