/**
 * Keyboard-only browser tests (issue 14): reach a control with Tab (within a number of presses: a
 * sensible order), check that the focused control shows where the focus is, and wait for the
 * page to put the focus somewhere (never on nothing) after it changes.
 */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { until } from './wait';

type InPage = { document: { activeElement: unknown; body: unknown } };

/** Whether the locator's element has the focus now (false while it is not in the page). */
export const isFocused = (locator: Locator): Promise<boolean> =>
  locator.evaluate((el) => el === (globalThis as unknown as InPage).document.activeElement).catch(() => false);

/** The focused element, described for a failure message: its tag, role, name and id. */
export function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = (globalThis as unknown as { document: { activeElement: { tagName: string; id: string; textContent: string | null; getAttribute(n: string): string | null } | null } }).document.activeElement;
    if (!el) return 'nothing';
    const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 60);
    return `<${el.tagName.toLowerCase()}${el.id ? ` id="${el.id}"` : ''}${el.getAttribute('role') ? ` role="${el.getAttribute('role')}"` : ''}> "${name}"`;
  });
}

/**
 * Presses Tab (or Shift+Tab, `backwards`) until the control has the focus: it must come within
 * `limit` presses, or the order is not a sensible one.
 */
export async function tabTo(page: Page, locator: Locator, limit = 40, options: { backwards?: boolean } = {}): Promise<void> {
  await locator.waitFor({ state: 'attached' }); // a visually hidden radio (a segmented control's) is reached too
  const key = options.backwards ? 'Shift+Tab' : 'Tab';
  for (let presses = 0; presses < limit; presses += 1) {
    if (await isFocused(locator)) return;
    await page.keyboard.press(key);
  }
  if (!(await isFocused(locator))) expect.fail(`${key} did not reach ${locator} within ${limit} presses (the focus is on ${await focusedElement(page)})`);
}

/**
 * The focused control shows where the focus is: it matches :focus-visible, and it (or `ringOn`,
 * the element that draws its ring: a segmented control's label) has an outline or a ring.
 */
export async function expectVisibleFocus(locator: Locator, options: { ringOn?: Locator } = {}): Promise<void> {
  const focusVisible = await locator.evaluate((el) => (el as unknown as { matches(selector: string): boolean }).matches(':focus-visible'));
  expect(focusVisible, `${locator} is focused by the keyboard (:focus-visible)`).to.equal(true);
  const ringOn = options.ringOn ?? locator;
  const style = await ringOn.evaluate((el) => {
    const s = (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string; boxShadow: string } }).getComputedStyle(el);
    return { outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0, ring: s.boxShadow !== 'none' };
  });
  expect(style.outline || style.ring, `visible focus on ${ringOn}`).to.equal(true);
}

/** Resolves once the control has the focus (the page moved it there itself). */
export async function waitForFocus(page: Page, locator: Locator, what = String(locator)): Promise<void> {
  await until(() => isFocused(locator), { what: () => `the focus on ${what}`, timeoutMs: 10_000, intervalMs: 50 }).catch(async (error: Error) => {
    expect.fail(`${error.message}; it is on ${await focusedElement(page)}`);
  });
}
