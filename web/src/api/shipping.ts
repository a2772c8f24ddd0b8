/**
 * A clinic's kit shipments and their carrier labels (/api/provider-clinic/{accountId}/shipments…):
 * the list (read again every few seconds while a parcel is on its way, so the carrier's scans show
 * as the shipping service reports them), the rates of a shipment, buying its label, and the
 * label's PDF.
 */
import useSWR from 'swr';
import { TrackingStatus, type ShipmentRatesAnswer, type ShipmentView } from '@platform/domain';
import { apiDownload, apiFetch, apiFetchPage, queryString, saveFile, type ApiError, type Page } from './fetcher';
import { withErrorHeading } from './query';
import { clinicApiPath } from './clinic';

export type { ShipmentRatesAnswer };

/** How often the list is read while a parcel is on its way (label bought, not delivered). */
export const TRACKING_POLL_MS = 5_000;

const onItsWay = (s: ShipmentView) => s.carrierLabel && s.tracking.trackingStatus !== TrackingStatus.Delivered;

export function useKitShipments(accountId: number, params: { page: number; pageSize: number }) {
  const path = clinicApiPath(accountId, `shipments?${queryString(params)}`);
  return useSWR<Page<ShipmentView>, ApiError>(
    ['page', path],
    ([, p]: [string, string]) => apiFetchPage<ShipmentView>(p),
    withErrorHeading({
      keepPreviousData: true,
      errorHeading: 'Error retrieving shipments',
      refreshInterval: (page?: Page<ShipmentView>) => (page?.rows.some(onItsWay) ? TRACKING_POLL_MS : 0),
      // Each poll reads afresh (the app's default keeps a read for 5 minutes).
      dedupingInterval: TRACKING_POLL_MS / 2,
    }),
  );
}

/** Asks the shipping service for the shipment's rates (a POST: each ask is a new quote). */
export const quoteShipmentRates = (accountId: number, shipmentId: number) =>
  apiFetch<ShipmentRatesAnswer>(clinicApiPath(accountId, `shipments/${shipmentId}/rates`), { method: 'POST' });

export const purchaseShipmentLabel = (accountId: number, shipmentId: number, rateId: string) =>
  apiFetch<ShipmentView>(clinicApiPath(accountId, `shipments/${shipmentId}/purchase-label`), { method: 'POST', body: { rateId } });

/** Downloads the shipment's carrier label (PDF) and hands it to the browser. */
export async function downloadCarrierLabel(accountId: number, shipment: ShipmentView): Promise<void> {
  const { blob, fileName } = await apiDownload(clinicApiPath(accountId, `shipments/${shipment.id}/carrier-label`), {
    fallbackName: `shipping-label-${shipment.externalOrderId ?? shipment.id}.pdf`,
  });
  saveFile(blob, fileName);
}
