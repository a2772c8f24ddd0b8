/** What the shipment endpoints of the Clinical Portal answer, as JSON. Types only. */

/** GET samples: one of the account's samples. */
export interface SampleRow {
  sampleId: number;
  barcode: string;
  status: string;
  sampleType: string | null;
  tests: string[];
  orderNumber: string;
  orderedAt: string;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string };
  physician: { id: number; name: string } | null;
  requisitionForm: boolean;
  /** The live (not cancelled) shipment carrying the sample, if any. */
  shipment: { id: number; externalOrderId: string | null; status: string } | null;
}

/** GET shipments, POST shipments/create: a kit shipment and what it carries. */
export interface ShipmentView {
  id: number;
  externalOrderId: string | null;
  status: string;
  carrier: string | null;
  trackingNumber: string | null;
  rateCents: number | null;
  shippedAt: string | null;
  createdAt: string;
  createdBy: string | null;
  samples: { id: number; barcode: string; status: string }[];
  /** How many document items (requisition forms) the shipment carries. */
  documents: number;
}
