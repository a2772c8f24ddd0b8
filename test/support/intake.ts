/**
 * A kit's check at intake answered in the browser as a technician does for a sound kit (issue 30,
 * item 2): Acceptable, the collection time the order gave (else a minute ago, typed in the
 * browser's own time zone as written on the tube), the requisition's identity confirmed, Receive.
 */
import type { Page } from 'playwright-core';

export async function receiveCheckedKit(page: Page, barcode: string): Promise<void> {
  const check = page.getByRole('region', { name: `Check kit ${barcode}` });
  await check.getByRole('radio', { name: 'Acceptable' }).check();
  const collected = check.getByLabel(/^Collected at/);
  if (!(await collected.inputValue())) {
    // A string to evaluate: a function would carry tsx's helpers the page does not have.
    const now = await page.evaluate<string>(
      "(() => { const d = new Date(Date.now() - 60000); const p = (n) => String(n).padStart(2, '0'); return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`; })()",
    );
    await collected.fill(now);
  }
  await check.getByRole('checkbox', { name: /on the tube match(es)? the requisition$/ }).check();
  await check.getByRole('button', { name: 'Receive' }).click();
}
