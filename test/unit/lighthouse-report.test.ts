/** The bench's Lighthouse lines (scripts/lighthouse/measure.ts): each page's median run against issue 14's targets. */
import { expect } from 'chai';
import { lighthouseLine, meetsLighthouseTargets, type LighthouseMeasured } from '../../scripts/lighthouse/measure';

const page = (over: Partial<LighthouseMeasured>): LighthouseMeasured => ({
  page: 'patient result', formFactor: 'phone', performance: 0.93, accessibility: 1, lcpMs: 2100, failedAccessibilityAudits: [],
  runs: [{ performance: 0.91, lcpMs: 2300 }, { performance: 0.93, lcpMs: 2100 }, { performance: 0.95, lcpMs: 2000 }],
  ...over,
});

describe('Lighthouse lines in the bench', () => {
  it('print a page with its scores, LCP, runs and goal, MET when every target is', () => {
    expect(lighthouseLine(page({}))).to.equal(
      'lighthouse patient result (phone): performance 0.93 | accessibility 1.00 | LCP 2100 ms | median of 3 (performance 0.91, 0.93, 0.95) | goal performance ≥ 0.90, LCP ≤ 2500 ms, accessibility 1.00 | MET',
    );
  });

  it('are SHORT on a phone page over 2.5 s LCP or under 0.90, on a desktop page under 0.95, anywhere under full accessibility', () => {
    expect(meetsLighthouseTargets(page({ lcpMs: 2501 }))).to.equal(false);
    expect(meetsLighthouseTargets(page({ performance: 0.89 }))).to.equal(false);
    expect(meetsLighthouseTargets(page({ formFactor: 'desktop', performance: 0.94, lcpMs: 4000 }))).to.equal(false);
    expect(meetsLighthouseTargets(page({ formFactor: 'desktop', performance: 0.95, lcpMs: 4000 }))).to.equal(true);
    const inaccessible = page({ accessibility: 0.98, failedAccessibilityAudits: ['color-contrast'] });
    expect(meetsLighthouseTargets(inaccessible)).to.equal(false);
    expect(lighthouseLine(inaccessible)).to.match(/\| failing color-contrast \| goal .* \| SHORT$/);
  });
});
