/**
 * A clinic buys a kit shipment's carrier label in a real browser (Debian's Chromium) and watches
 * its tracking move as the local shipping stand-in's signed webhooks arrive: the rates (a service
 * too slow for a specimen shown and disabled), the label bought and downloaded (PDF), the shipment
 * Shipped, each carrier scan on the Shipments page without a reload, delivered at the lab, and the
 * tracking link on the sample's timeline; axe on each state.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { PostalAddress } from '@platform/domain';
import { saveAccountAddress } from '@platform/server';
import { collectPageErrors, expectAccessible } from '../support/browser';
import { shippingBrowserSuite } from '../support/shipping';
import { buildTestApp, type TestApp } from '../support/http';
import { addPatient, createClinic, pdfText, placeOrder, TEST_PASSWORD, type TestClinic } from '../support/fixtures/clinic';
import { signIn } from './pages';

const CLINIC_ADDRESS: PostalAddress = { addressLine1: '18 Lantern Street', addressLine2: null, city: 'Portland', state: 'OR', postalCode: '97205', country: 'US' };

describe('shipping labels (browser)', function () {
  this.timeout(120_000);
  const { suite, standIn } = shippingBrowserSuite({ screenshotPrefix: 'shipping' });
  let t: TestApp;
  let clinic: TestClinic;

  before(async () => {
    t = await buildTestApp();
    clinic = await createClinic(t.ctx, t.app, 'Lantern Clinic');
    await t.ctx.db.sequelize.transaction((transaction) => saveAccountAddress(t.ctx.db, transaction, clinic.accountId, 'shipping', CLINIC_ADDRESS));
  });
  after(async () => {
    await t?.close();
  });

  it('buys a kit shipment\'s label and sees the tracking move as the shipping service\'s webhooks arrive', async () => {
    const patient = await addPatient(clinic);
    const order = await placeOrder(clinic, patient.id);
    const created = (await clinic.session.post(clinic.api('shipments/create'), { sampleIds: [order.sampleId] }).expect(201)).body;
    const card = (page: import('playwright-core').Page) => page.getByRole('article', { name: `Shipment ${created.externalOrderId}` });

    const { page } = await suite.newPage({ bypassCSP: true });
    const errors = collectPageErrors(page);
    await signIn(page, 'provider', clinic.email, TEST_PASSWORD);
    await page.goto(`/provider-clinic/${clinic.accountId}/shipments`);
    await card(page).waitFor();
    await expectAccessible(page, 'the shipments page with a shipment ready to ship');

    // The rates, from the clinic's address to the lab; Ground is too slow for a specimen.
    await card(page).getByRole('button', { name: `Buy shipping label for shipment ${created.externalOrderId}` }).click();
    const dialog = page.getByRole('dialog', { name: `Shipping label for shipment ${created.externalOrderId}` });
    await dialog.getByText('From: 18 Lantern Street, Portland, OR 97205, US').waitFor();
    await dialog.getByText('To: 123 Example Street, Testville, ZZ 00000, US').waitFor();
    const ground = dialog.getByRole('radio', { name: /UPS® Ground/ });
    expect(await ground.isDisabled()).to.equal(true);
    await dialog.getByText('Too slow: specimens must reach the lab within 2 business days').waitFor();
    const twoDay = dialog.getByRole('radio', { name: /UPS 2nd Day Air®/ });
    expect(await twoDay.isChecked()).to.equal(true);
    await expectAccessible(page, 'the rates of a shipment');
    await dialog.getByRole('button', { name: /^Buy label \(\$\d+\.\d{2}\)$/ }).click();

    // Bought: the tracking number (a link to the carrier), the label to download.
    await dialog.waitFor({ state: 'detached' });
    const trackingNumber = standIn().labels.at(-1)!.trackingNumber;
    const link = card(page).getByRole('link', { name: `Track parcel ${trackingNumber} on the carrier's site (opens a new tab)` });
    await link.waitFor();
    expect(await link.getAttribute('href')).to.equal(`https://www.ups.com/track?tracknum=${trackingNumber}`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      card(page).getByRole('button', { name: `Download shipping label of shipment ${created.externalOrderId}` }).click(),
    ]);
    expect(download.suggestedFilename()).to.equal(`shipping-label-${created.externalOrderId}.pdf`);
    const label = pdfText(readFileSync((await download.path())!));
    expect(label).to.include(`TRACKING #: ${trackingNumber}`);
    expect(label).to.include('18 Lantern Street Portland, OR 97205');

    // The service's order.shipped came with the label: Shipped, the kit In Transit.
    await standIn().settled();
    await card(page).getByText('Shipped', { exact: true }).waitFor();
    await card(page).getByText(`${order.barcode} · In Transit`).waitFor();

    // Each carrier scan shows on the page as its webhook arrives (the page reads the list again while the parcel moves).
    for (const words of ['Accepted by the carrier', 'In transit', 'Delivered at the lab']) {
      const delivery = await standIn().advance(trackingNumber);
      expect(delivery.status).to.equal(200);
      await card(page).getByText(new RegExp(`^${words}`)).first().waitFor({ timeout: 30_000 });
    }
    await card(page).getByRole('list', { name: `Carrier scans of shipment ${created.externalOrderId}` }).getByText(/Departed from facility · Louisville, KY/).waitFor();
    await expectAccessible(page, 'a delivered shipment with its carrier scans');

    // The sample's timeline on the patient page: delivered at the lab, with the tracking link.
    await page.goto(`/provider-clinic/${clinic.accountId}/patient/${patient.id}`);
    const sample = page.getByRole('article', { name: `Sample ${order.barcode}` });
    await sample.getByText('Delivered at the lab').waitFor();
    await sample.getByRole('link', { name: `Track parcel ${trackingNumber} on the carrier's site (opens a new tab)` }).waitFor();
    await expectAccessible(page, 'the patient page with a delivered kit');
    expect(errors).to.deep.equal([]);
  });
});
