/**
 * A small typed client of the shipping service's REST API (ShipStation's v2 API, the ShipEngine
 * shape: POST /v2/rates, POST /v2/labels/rates/{rate_id}, the label's PDF download). ShipStation
 * publishes no Node client of its own, and the ShipEngine one has not kept up with the v2 API, so
 * the product speaks the few calls it needs itself (docs/shipping.md). Offline and in tests the
 * same calls go to the local stand-in (scripts/shipping-stand-in.ts) through SHIPPING_API_URL.
 */
import type { PostalAddress } from '@platform/domain';
import type { ShippingConfig } from '../config';
import { unprocessable } from '../errors';

/** How long one call may take before the product gives up on it (the clinic is waiting on the page). */
const CALL_TIMEOUT_MS = 20_000;

/** An address with the name of who is there, as a label prints it. */
export interface LabelAddress extends PostalAddress {
  name: string;
  phone: string | null;
}

/** The service's address shape. */
interface ServiceAddress {
  name: string;
  phone: string;
  address_line1: string;
  address_line2?: string;
  city_locality: string;
  state_province: string;
  postal_code: string;
  country_code: string;
  address_residential_indicator: 'yes' | 'no' | 'unknown';
}

export interface RateRequest {
  /** Our id of the shipment (the service's webhooks name it). */
  externalOrderId: string;
  shipFrom: LabelAddress;
  shipTo: LabelAddress;
  /** A patient's home is residential; a clinic or the lab is not. */
  toResidence: boolean;
  weightOunces: number;
  dimensionsInches: { length: number; width: number; height: number };
}

export interface QuotedRate {
  rateId: string;
  carrier: string;
  serviceCode: string;
  service: string;
  amountCents: number;
  currency: string;
  businessDays: number | null;
}

export interface PurchasedLabel {
  labelId: string;
  trackingNumber: string;
  carrierCode: string;
  serviceCode: string;
  amountCents: number;
  /** The carrier's tracking page when the service gives one. */
  trackingUrl: string | null;
  /** Where the label's PDF is downloaded from (with the API key). */
  pdfUrl: string;
}

/** What the service sends back (only the fields we read). */
interface Money { currency: string; amount: number }
interface RatesResponse {
  rate_response?: {
    rates?: {
      rate_id: string;
      carrier_friendly_name?: string;
      carrier_code?: string;
      service_type?: string;
      service_code: string;
      shipping_amount: Money;
      other_amount?: Money;
      confirmation_amount?: Money;
      insurance_amount?: Money;
      delivery_days?: number | null;
    }[];
    errors?: { message: string }[];
  };
}
interface LabelResponse {
  label_id: string;
  tracking_number: string;
  carrier_code: string;
  service_code: string;
  shipment_cost?: Money;
  tracking_url?: string | null;
  label_download?: { pdf?: string; href?: string };
}
interface ErrorResponse { errors?: { message?: string }[] }

const cents = (m: Money | undefined) => Math.round((m?.amount ?? 0) * 100);

function serviceAddress(a: LabelAddress, residential: boolean): ServiceAddress {
  return {
    name: a.name,
    phone: a.phone ?? '',
    address_line1: a.addressLine1,
    ...(a.addressLine2 ? { address_line2: a.addressLine2 } : {}),
    city_locality: a.city,
    state_province: a.state ?? '',
    postal_code: a.postalCode,
    country_code: a.country,
    address_residential_indicator: residential ? 'yes' : 'no',
  };
}

export interface ShippingClient {
  rates(request: RateRequest): Promise<QuotedRate[]>;
  purchaseLabel(rateId: string): Promise<PurchasedLabel>;
  downloadLabel(pdfUrl: string): Promise<Buffer>;
}

/** A refusal the clinic can read: what the service said, never a stack. */
function serviceRefusal(status: number, body: ErrorResponse | null): Error {
  const said = body?.errors?.map((e) => e.message).filter(Boolean).join('; ');
  return unprocessable(`The shipping service refused the request${said ? `: ${said}` : ` (status ${status})`}`, undefined, 'shipping_service_refused');
}
const unreachable = () => unprocessable('The shipping service did not answer. Please try again in a moment.', undefined, 'shipping_service_unavailable');

export function createShippingClient(config: ShippingConfig): ShippingClient {
  async function call(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { 'API-Key': config.apiKey, Accept: method === 'GET' ? '*/*' : 'application/json', ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch {
      throw unreachable();
    }
    if (res.status >= 500) throw unreachable();
    if (!res.ok) throw serviceRefusal(res.status, (await res.json().catch(() => null)) as ErrorResponse | null);
    return res;
  }
  const json = async <T>(method: 'GET' | 'POST', path: string, body?: unknown) => (await (await call(method, `${config.apiUrl}${path}`, body)).json()) as T;

  return {
    async rates(r) {
      const answer = await json<RatesResponse>('POST', '/v2/rates', {
        rate_options: { carrier_ids: config.carrierIds },
        shipment: {
          external_shipment_id: r.externalOrderId,
          ship_from: serviceAddress(r.shipFrom, false),
          ship_to: serviceAddress(r.shipTo, r.toResidence),
          packages: [{
            weight: { value: r.weightOunces, unit: 'ounce' },
            dimensions: { unit: 'inch', length: r.dimensionsInches.length, width: r.dimensionsInches.width, height: r.dimensionsInches.height },
          }],
        },
      });
      const rates = answer.rate_response?.rates ?? [];
      if (!rates.length && answer.rate_response?.errors?.length) throw serviceRefusal(200, answer.rate_response);
      return rates.map((rate) => ({
        rateId: rate.rate_id,
        carrier: rate.carrier_friendly_name ?? rate.carrier_code ?? 'Carrier',
        serviceCode: rate.service_code,
        service: rate.service_type ?? rate.service_code,
        // What the label costs in all: the postage and whatever the carrier adds to it.
        amountCents: cents(rate.shipping_amount) + cents(rate.other_amount) + cents(rate.confirmation_amount) + cents(rate.insurance_amount),
        currency: rate.shipping_amount.currency.toUpperCase(),
        businessDays: typeof rate.delivery_days === 'number' ? rate.delivery_days : null,
      }));
    },

    async purchaseLabel(rateId) {
      const label = await json<LabelResponse>('POST', `/v2/labels/rates/${encodeURIComponent(rateId)}`, {
        label_format: 'pdf',
        label_layout: '4x6',
        label_download_type: 'url',
      });
      const pdfUrl = label.label_download?.pdf ?? label.label_download?.href;
      if (!pdfUrl) throw unprocessable('The shipping service sold a label without a PDF to download', undefined, 'shipping_service_refused');
      return {
        labelId: label.label_id,
        trackingNumber: label.tracking_number,
        carrierCode: label.carrier_code,
        serviceCode: label.service_code,
        amountCents: cents(label.shipment_cost),
        trackingUrl: label.tracking_url ?? null,
        pdfUrl,
      };
    },

    async downloadLabel(pdfUrl) {
      // Only ever from the service's own host: the URL came in its answer, the key goes with it.
      if (new URL(pdfUrl).origin !== new URL(config.apiUrl).origin) {
        throw unprocessable('The shipping service named a label download on another host', undefined, 'shipping_service_refused');
      }
      const res = await call('GET', pdfUrl);
      return Buffer.from(await res.arrayBuffer());
    },
  };
}
