import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AccountRole, AccountType, UserKind, type Me, type SampleRow, type ShipmentRatesAnswer, type ShipmentView } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { ShipmentsPage } from './ShipmentsPage';

const riverside = {
  id: 1, name: 'Riverside Oncology', type: AccountType.General, role: AccountRole.Physician as AccountRole,
  eapPartner: false, international: false, clinicAccess: true, researchAccess: false,
};
const me: Me = {
  user: { id: 7, kind: UserKind.Provider, email: 'physician@demo.test', firstName: 'Paula', lastName: 'Grant' },
  accounts: [riverside],
  currentAccount: riverside,
};
const kit = (sampleId: number): SampleRow => ({
  sampleId, barcode: `6100000000000${sampleId}`, status: 'Order Placed', sampleType: 'Saliva', tests: ['PROSTOX ultra'], orderNumber: `ORD${sampleId}`,
  orderedAt: '2026-03-01T10:00:00Z', patient: { id: 20 + sampleId, firstName: 'Testy', lastName: 'Lane', dateOfBirth: '1950-02-28' }, physician: null,
  requisitionForm: true, shipment: null,
});
const readyShipment = (id: number): ShipmentView => ({
  id, externalOrderId: `SHP-000000${id}`, status: 'Ready to Ship', carrier: null, trackingNumber: null, rateCents: null, shippedAt: null,
  createdAt: '2026-03-01T10:00:00Z', createdBy: 'Paula Grant', samples: [{ id: 1, barcode: '61000000000001', status: 'Pending Shipment' }], documents: 1,
  service: null, carrierLabel: false, labelPurchasable: true,
  tracking: { carrier: null, trackingNumber: null, trackingUrl: null, trackingStatus: null, deliveredAt: null, toPatient: false }, trackingEvents: [],
});

describe('ShipmentsPage', () => {
  it('dismissing a refused shipment gives the focus back to Create shipment', async () => {
    const user = userEvent.setup({ delay: null });
    const sent = mockApi({
      'GET /auth/me': { body: me },
      'GET /provider-clinic/1/samples': { body: [kit(1), kit(2)], headers: { 'x-total-count': '2' } },
      'GET /provider-clinic/1/shipments': { body: [], headers: { 'x-total-count': '0' } },
      'POST /provider-clinic/1/shipments/create': apiRefusal(409, 'conflict', 'Kit 61000000000001 is already in a shipment'),
    });
    renderPage(<ShipmentsPage />, { path: '/provider-clinic/:accountId/shipments', route: '/provider-clinic/1/shipments' });
    await user.click(await screen.findByRole('checkbox', { name: /61000000000001/ }));
    const create = screen.getByRole('button', { name: 'Create shipment (1)' });
    await user.click(create);
    await screen.findByText('Kit 61000000000001 is already in a shipment');
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ sampleIds: [1] });

    screen.getByRole('button', { name: 'Dismiss' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByText('The shipment was not created')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(create));
  });

  it("prints a shipment's label for the box on the paper chosen from its menu (the sheet on its first free label)", async () => {
    localStorage.clear();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:label'), revokeObjectURL: vi.fn() }));
    const user = userEvent.setup({ delay: null });
    const shipment = readyShipment(12);
    const file = { body: '%PDF-', headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="labels-SHP-00000012.pdf"' } };
    const sent = mockApi({
      'GET /auth/me': { body: me },
      'GET /provider-clinic/1/samples': { body: [], headers: { 'x-total-count': '0' } },
      'GET /provider-clinic/1/shipments': { body: [shipment], headers: { 'x-total-count': '1' } },
      'GET /provider-clinic/1/shipments/12/label/pdf': file,
    });
    renderPage(<ShipmentsPage />, { path: '/provider-clinic/:accountId/shipments', route: '/provider-clinic/1/shipments' });
    await user.click(await screen.findByRole('button', { name: 'Print label for shipment SHP-00000012' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sheet of 30, label 1' }));
    await waitFor(() => expect(JSON.parse(localStorage.getItem('labelPrinter') ?? '{}')).toEqual({ paper: 'sheet', start: 2 }));
    await user.click(screen.getByRole('button', { name: 'Print label for shipment SHP-00000012' }));
    // The sheet's next free label is the second now.
    await screen.findByRole('menuitem', { name: 'Sheet of 30, label 2', hidden: true });
    await user.click(screen.getByRole('menuitem', { name: 'Thermal 2 × 1 in', hidden: true }));
    await waitFor(() => expect(sent.filter((r) => r.path.includes('/label/')).map((r) => r.path)).toEqual([
      '/provider-clinic/1/shipments/12/label/pdf?layout=sheet&start=1',
      '/provider-clinic/1/shipments/12/label/pdf?layout=thermal',
    ]));
    vi.unstubAllGlobals();
  });

  it("buys a shipment's carrier label: rates from the shipping service (a slow one disabled, the lab's choice preselected), the server's refusal shown, then bought", async () => {
    const user = userEvent.setup({ delay: null });
    const rate = (rateId: string, label: string, businessDays: number, amountCents: number, allowed: boolean, selected: boolean) => ({
      rateId, carrier: 'UPS', service: rateId, label, businessDays, amountCents, currency: 'USD' as const, allowed, selected,
    });
    const quote: ShipmentRatesAnswer = {
      shipmentId: 14, shipFrom: '400 Harbor Way, Oakland, CA 94607, US', shipTo: '123 Example Street, Testville, ZZ 00000, US',
      rates: [rate('se-1', 'UPS® Ground', 4, 1_450, false, false), rate('se-2', 'UPS 2nd Day Air®', 2, 2_835, true, true), rate('se-3', 'UPS Next Day Air®', 1, 5_400, true, false)],
    };
    const bought: ShipmentView = {
      ...readyShipment(14), service: 'UPS Next Day Air®', carrierLabel: true, labelPurchasable: false, rateCents: 5_400,
      tracking: { carrier: 'UPS', trackingNumber: '1ZTEST', trackingUrl: 'https://www.ups.com/track?tracknum=1ZTEST', trackingStatus: 'NY', deliveredAt: null, toPatient: false },
    };
    let refuseOnce = true;
    const sent = mockApi({
      'GET /auth/me': { body: me },
      'GET /provider-clinic/1/samples': { body: [], headers: { 'x-total-count': '0' } },
      'GET /provider-clinic/1/shipments': () => ({ body: [refuseOnce ? readyShipment(14) : bought], headers: { 'x-total-count': '1' } }),
      'POST /provider-clinic/1/shipments/14/rates': { body: quote },
      'POST /provider-clinic/1/shipments/14/purchase-label': () => {
        if (!refuseOnce) return { body: bought };
        refuseOnce = false;
        return apiRefusal(422, 'shipping_service_refused', 'The shipping service refused the request: ship_from.postal_code is not valid');
      },
    });
    renderPage(<ShipmentsPage />, { path: '/provider-clinic/:accountId/shipments', route: '/provider-clinic/1/shipments' });
    await user.click(await screen.findByRole('button', { name: 'Buy shipping label for shipment SHP-00000014' }));
    await screen.findByText(/From: 400 Harbor Way, Oakland, CA 94607, US/);
    expect((screen.getByRole('radio', { name: /UPS® Ground: \$14\.50, 4 business days/ }) as HTMLInputElement).disabled).toBe(true);
    expect(screen.getByText('Too slow: specimens must reach the lab within 2 business days')).toBeTruthy();
    expect((screen.getByRole('radio', { name: /UPS 2nd Day Air®/ }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: /UPS Next Day Air®/ }));
    await user.click(screen.getByRole('button', { name: 'Buy label ($54.00)' }));
    await screen.findByText('The shipping service refused the request: ship_from.postal_code is not valid');
    await user.click(screen.getByRole('button', { name: 'Buy label ($54.00)' }));
    await screen.findByRole('button', { name: 'Download shipping label of shipment SHP-00000014' });
    expect(screen.getByRole('link', { name: "Track parcel 1ZTEST on the carrier's site (opens a new tab)" }).getAttribute('href')).toBe('https://www.ups.com/track?tracknum=1ZTEST');
    expect(screen.getByText('Label created, not yet with the carrier')).toBeTruthy();
    expect(sent.filter((r) => r.path.endsWith('/purchase-label')).map((r) => r.body)).toEqual([{ rateId: 'se-3' }, { rateId: 'se-3' }]);
  });
});
