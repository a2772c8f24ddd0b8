/**
 * The local shipping-service stand-in of `npm start` and the tests (no internet here): an HTTP
 * server on 127.0.0.1 that answers the calls the product makes of ShipStation's v2 API
 * (server/src/shipments/shipping-client.ts) with ShipStation-shaped JSON:
 *   POST /v2/rates                      rates of three UPS services for the parcel, from its weight
 *   POST /v2/labels/rates/{rate_id}     a label for a quoted rate (once per rate), with a tracking number
 *   GET  /v2/downloads/labels/{id}.pdf  the label itself: a real 4 × 6 in PDF (marked as a test label)
 * Each call must carry the API-Key it was started with (else 401, as the service answers).
 * Then it plays the shipping service's side: right after a label is bought it sends the signed
 * `order.shipped` webhook (ShipStation marks an order shipped when its label is created), and as
 * the parcel moves (advance(), or on its own every `autoAdvanceMs` under `npm start`) a signed
 * `order.tracking` webhook for each carrier scan: accepted, in transit, delivered. Webhooks are
 * signed with the product's SHIPPING_WEBHOOK_SECRET scheme (x-shipping-signature) and sent to
 * `<webhookBase>/orders`. It keeps everything in memory and never talks to a carrier.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { signShippingPayload } from '@platform/server';
import { SHIPPING_SIGNATURE_HEADER, ShippingEventType, TrackingStatus } from '@platform/domain';

export interface ShippingStandInCall {
  method: string;
  path: string;
  status: number | null;
}

export interface ShippingStandInDelivery {
  eventId: string;
  type: string;
  /** The API's answer (null while it is being answered, or when it could not be reached). */
  status: number | null;
  body: string;
  error?: string;
}

interface StandInAddress {
  name?: string;
  phone?: string;
  address_line1?: string;
  address_line2?: string;
  city_locality?: string;
  state_province?: string;
  postal_code?: string;
  country_code?: string;
}

interface QuotedRate {
  rateId: string;
  externalOrderId: string;
  serviceCode: string;
  serviceType: string;
  days: number;
  amount: number;
  shipFrom: StandInAddress;
  shipTo: StandInAddress;
  used: boolean;
}

export interface StandInLabel {
  labelId: string;
  externalOrderId: string;
  trackingNumber: string;
  serviceType: string;
  shipFrom: StandInAddress;
  shipTo: StandInAddress;
  /** The scans sent so far, in order (the next advance() sends the next one). */
  scans: (typeof TRACKING_STEPS)[number]['code'][];
}

export interface ShippingStandIn {
  url: string;
  port: number;
  apiKey: string;
  calls: ShippingStandInCall[];
  deliveries: ShippingStandInDelivery[];
  labels: StandInLabel[];
  /** Where webhooks go: the API's /api/webhooks/shipping-service (…/orders is appended). */
  setWebhookBase(url: string): void;
  /** Sends the next carrier scan of the label with this tracking number (the newest label when none is given); resolves once the API answered it. */
  advance(trackingNumber?: string): Promise<ShippingStandInDelivery>;
  /** Sends an event already sent once more, byte for byte and freshly signed (as the service retries). */
  redeliver(eventId: string): Promise<ShippingStandInDelivery>;
  /** Resolves once every webhook sent so far has been answered. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export interface ShippingStandInOptions {
  /** The product's SHIPPING_WEBHOOK_SECRET (the webhooks are signed with it). */
  webhookSecret: string;
  /** The API key the product must send (SHIPPING_API_KEY). */
  apiKey: string;
  webhookBase?: string | null;
  /** Under `npm start`: every label's parcel moves on by itself this often (0: only advance() moves it). */
  autoAdvanceMs?: number;
  port?: number;
  host?: string;
}

/** The UPS services the stand-in quotes: their code, name, days in transit, and price (base + per pound). */
const SERVICES = [
  { code: 'ups_ground', type: 'UPS® Ground', days: 4, base: 11.4, perPound: 0.9 },
  { code: 'ups_2nd_day_air', type: 'UPS 2nd Day Air®', days: 2, base: 24.15, perPound: 2.1 },
  { code: 'ups_next_day_air', type: 'UPS Next Day Air®', days: 1, base: 46.8, perPound: 3.6 },
] as const;

/** A parcel's scans in the order the carrier makes them. */
const TRACKING_STEPS = [
  { code: TrackingStatus.Accepted, description: 'Origin scan: package received by UPS', where: (a: StandInAddress) => a },
  { code: TrackingStatus.InTransit, description: 'Departed from facility', where: () => ({ city_locality: 'Louisville', state_province: 'KY' }) },
  { code: TrackingStatus.Delivered, description: 'Delivered, left at the front desk', where: (_a: StandInAddress, to: StandInAddress) => to },
] as const;

const rid = (prefix: string) => `${prefix}-${randomBytes(8).toString('hex')}`;
const upsTrackingNumber = () => `1Z${randomBytes(8).toString('hex').toUpperCase().slice(0, 6)}03${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const placeOf = (a: StandInAddress) => [a.city_locality, a.state_province].filter(Boolean).join(', ');

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}
const refuse = (res: http.ServerResponse, status: number, message: string, code = 'invalid_field_value') =>
  json(res, status, { request_id: rid('req'), errors: [{ error_source: 'shipstation', error_type: 'validation', error_code: code, message }] });

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** Which required part of an address is missing (null when none). */
function addressProblem(label: string, a: StandInAddress | undefined): string | null {
  if (!a) return `${label} is required`;
  for (const field of ['name', 'address_line1', 'city_locality', 'postal_code', 'country_code'] as const) {
    if (!a[field]) return `${label}.${field} is required`;
  }
  return null;
}

/** A 4 × 6 in label PDF: from, to, service, tracking number, and "test label" written across it. */
function labelPdf(label: StandInLabel): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: [288, 432], margin: 16, info: { Title: `Shipping label ${label.trackingNumber}` } });
    const parts: Buffer[] = [];
    doc.on('data', (b: Buffer) => parts.push(b));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.on('error', reject);
    const lines = (a: StandInAddress) => [a.name, a.address_line1, a.address_line2, `${a.city_locality ?? ''}, ${a.state_province ?? ''} ${a.postal_code ?? ''}`, a.country_code].filter(Boolean).join('\n');
    doc.fontSize(8).text('SHIP FROM', { underline: true }).fontSize(9).text(lines(label.shipFrom));
    doc.moveDown().fontSize(8).text('SHIP TO', { underline: true }).fontSize(12).text(lines(label.shipTo));
    doc.moveDown().fontSize(14).text(label.serviceType);
    doc.fontSize(10).text(`TRACKING #: ${label.trackingNumber}`);
    doc.fontSize(8).text(`Reference: ${label.externalOrderId}`);
    doc.moveDown().fontSize(11).text('TEST LABEL: local shipping stand-in, not valid for shipping', { align: 'center' });
    doc.end();
  });
}

export async function startShippingStandIn(options: ShippingStandInOptions): Promise<ShippingStandIn> {
  const rates = new Map<string, QuotedRate>();
  const labels: StandInLabel[] = [];
  const calls: ShippingStandInCall[] = [];
  const deliveries: ShippingStandInDelivery[] = [];
  const pending = new Set<Promise<unknown>>();
  const timers = new Set<NodeJS.Timeout>();
  let webhookBase = options.webhookBase ?? null;
  let url = '';

  /** One attempt at a delivery, signed now. */
  async function deliver(delivery: ShippingStandInDelivery): Promise<ShippingStandInDelivery> {
    delete delivery.error;
    delivery.status = null;
    if (!webhookBase) {
      delivery.error = 'no webhook address set';
      return delivery;
    }
    try {
      const res = await fetch(`${webhookBase}/orders`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [SHIPPING_SIGNATURE_HEADER]: signShippingPayload(options.webhookSecret, delivery.body) },
        body: delivery.body,
      });
      delivery.status = res.status;
      await res.text();
    } catch (err) {
      delivery.error = (err as Error).message;
    }
    return delivery;
  }

  function send(type: string, data: Record<string, unknown>): Promise<ShippingStandInDelivery> {
    const eventId = rid('evt');
    const delivery: ShippingStandInDelivery = { eventId, type, status: null, body: JSON.stringify({ id: eventId, type, created_at: new Date().toISOString(), data }) };
    deliveries.push(delivery);
    const done = deliver(delivery);
    pending.add(done);
    void done.finally(() => pending.delete(done));
    return done;
  }

  function advance(trackingNumber?: string): Promise<ShippingStandInDelivery> {
    const label = trackingNumber ? labels.find((l) => l.trackingNumber === trackingNumber) : labels[labels.length - 1];
    if (!label) return Promise.reject(new Error(`no label ${trackingNumber ?? ''}`.trim()));
    const step = TRACKING_STEPS[label.scans.length];
    if (!step) return Promise.reject(new Error(`label ${label.trackingNumber} is already delivered`));
    label.scans.push(step.code);
    const where = placeOf(step.where(label.shipFrom, label.shipTo));
    return send(ShippingEventType.OrderTracking, {
      externalOrderId: label.externalOrderId,
      trackingNumber: label.trackingNumber,
      statusCode: step.code,
      description: step.description,
      ...(where ? { location: where } : {}),
      occurredAt: new Date().toISOString(),
    });
  }

  /** Under npm start: the parcel moves on by itself until it is delivered. */
  function moveOnByItself(label: StandInLabel): void {
    if (!options.autoAdvanceMs) return;
    const timer = setInterval(() => {
      if (label.scans.length >= TRACKING_STEPS.length) {
        clearInterval(timer);
        timers.delete(timer);
        return;
      }
      void advance(label.trackingNumber).catch(() => undefined);
    }, options.autoAdvanceMs);
    timers.add(timer);
  }

  async function answerRates(body: Record<string, unknown>, res: http.ServerResponse): Promise<void> {
    const shipment = body.shipment as { external_shipment_id?: string; ship_from?: StandInAddress; ship_to?: StandInAddress; packages?: { weight?: { value?: number; unit?: string } }[] } | undefined;
    const problem = addressProblem('shipment.ship_from', shipment?.ship_from) ?? addressProblem('shipment.ship_to', shipment?.ship_to);
    if (problem) return refuse(res, 400, problem);
    const ounces = shipment!.packages?.[0]?.weight?.unit === 'ounce' ? Number(shipment!.packages[0].weight.value) : NaN;
    if (!(ounces > 0)) return refuse(res, 400, 'shipment.packages[0].weight must be a positive number of ounces');
    if (!shipment!.external_shipment_id) return refuse(res, 400, 'shipment.external_shipment_id is required');
    const pounds = Math.ceil(ounces / 16);
    const quoted = SERVICES.map((s) => {
      const rate: QuotedRate = {
        rateId: rid('se'), externalOrderId: shipment!.external_shipment_id!, serviceCode: s.code, serviceType: s.type, days: s.days,
        amount: Math.round((s.base + s.perPound * pounds) * 100) / 100, shipFrom: shipment!.ship_from!, shipTo: shipment!.ship_to!, used: false,
      };
      rates.set(rate.rateId, rate);
      return rate;
    });
    json(res, 200, {
      shipment_id: rid('se'),
      external_shipment_id: shipment!.external_shipment_id,
      rate_response: {
        rate_request_id: rid('se'),
        status: 'completed',
        errors: [],
        invalid_rates: [],
        rates: quoted.map((r) => ({
          rate_id: r.rateId, rate_type: 'shipment', carrier_id: 'se-ups', carrier_code: 'ups', carrier_friendly_name: 'UPS',
          service_code: r.serviceCode, service_type: r.serviceType,
          shipping_amount: { currency: 'usd', amount: r.amount }, other_amount: { currency: 'usd', amount: 0 },
          insurance_amount: { currency: 'usd', amount: 0 }, confirmation_amount: { currency: 'usd', amount: 0 },
          delivery_days: r.days, guaranteed_service: false, trackable: true, validation_status: 'valid',
        })),
      },
    });
  }

  function answerLabel(rateId: string, res: http.ServerResponse): void {
    const rate = rates.get(rateId);
    if (!rate) return refuse(res, 404, `Rate ${rateId} was not found`, 'rate_not_found');
    if (rate.used) return refuse(res, 400, `A label was already created for rate ${rateId}`, 'rate_already_used');
    rate.used = true;
    const label: StandInLabel = {
      labelId: rid('se'), externalOrderId: rate.externalOrderId, trackingNumber: upsTrackingNumber(), serviceType: rate.serviceType,
      shipFrom: rate.shipFrom, shipTo: rate.shipTo, scans: [],
    };
    labels.push(label);
    json(res, 200, {
      label_id: label.labelId, status: 'completed', shipment_id: rid('se'), ship_date: new Date().toISOString(),
      shipment_cost: { currency: 'usd', amount: rate.amount }, insurance_cost: { currency: 'usd', amount: 0 },
      tracking_number: label.trackingNumber, is_return_label: false, carrier_id: 'se-ups', carrier_code: 'ups', service_code: rate.serviceCode,
      label_format: 'pdf', label_layout: '4x6', trackable: true, tracking_status: 'in_transit',
      label_download: { pdf: `${url}/v2/downloads/labels/${label.labelId}.pdf`, href: `${url}/v2/downloads/labels/${label.labelId}.pdf` },
    });
    // The service marks the order shipped once its label exists, and says so.
    void send(ShippingEventType.OrderShipped, { externalOrderId: label.externalOrderId, carrier: 'UPS', trackingNumber: label.trackingNumber, shippedAt: new Date().toISOString() });
    moveOnByItself(label);
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    if (req.headers['api-key'] !== options.apiKey) return refuse(res, 401, 'The API key is missing or not valid', 'unauthorized');
    if (req.method === 'POST' && path === '/v2/rates') {
      const body = await readJson(req);
      return body ? answerRates(body, res) : refuse(res, 400, 'The request body is not JSON');
    }
    const labelFromRate = /^\/v2\/labels\/rates\/([\w-]+)$/.exec(path);
    if (req.method === 'POST' && labelFromRate) return answerLabel(labelFromRate[1], res);
    const download = /^\/v2\/downloads\/labels\/([\w-]+)\.pdf$/.exec(path);
    if (req.method === 'GET' && download) {
      const label = labels.find((l) => l.labelId === download[1]);
      if (!label) return refuse(res, 404, 'No such label', 'not_found');
      const pdf = await labelPdf(label);
      res.writeHead(200, { 'Content-Type': 'application/pdf', 'Content-Length': String(pdf.length) });
      res.end(pdf);
      return;
    }
    refuse(res, 404, `No route ${req.method} ${path}`, 'not_found');
  }

  const server = http.createServer((req, res) => {
    const call: ShippingStandInCall = { method: req.method ?? 'GET', path: req.url ?? '/', status: null };
    calls.push(call);
    res.on('finish', () => { call.status = res.statusCode; });
    route(req, res).catch((err: Error) => refuse(res, 500, err.message, 'internal'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  url = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url, port, apiKey: options.apiKey, calls, deliveries, labels,
    setWebhookBase(base) { webhookBase = base.replace(/\/$/, ''); },
    advance,
    async redeliver(eventId) {
      const delivery = deliveries.find((d) => d.eventId === eventId);
      if (!delivery) throw new Error(`no event ${eventId}`);
      const again: ShippingStandInDelivery = { ...delivery, status: null };
      deliveries.push(again);
      return deliver(again);
    },
    async settled() {
      while (pending.size) await Promise.all([...pending]);
    },
    async close() {
      for (const t of timers) clearInterval(t);
      await Promise.all([...pending]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
