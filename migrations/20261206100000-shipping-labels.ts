/**
 * Shipping for real (issue 31, item 1; docs/shipping.md): a kit shipment's rates as the shipping
 * service quoted them (shipment_rates: a label is bought only with a rate quoted for that very
 * shipment), the label bought (its id at the service, service, tracking link, the addresses it was
 * bought for, its PDF in files as a 'Shipping Label'), and the carrier's scans as the service's
 * webhooks report them (shipment_tracking_events; the last one's status and the delivery on the shipment).
 */
import { FIRST_STORED_FILE_KINDS, SHIPPING_LABEL_FILE_KIND, STORED_FILE_KINDS, TRACKING_STATUSES } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { oneOf, TIMESTAMPS } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE files DROP CONSTRAINT files_kind_check;
ALTER TABLE files ADD CONSTRAINT files_kind_check CHECK (${oneOf('kind', STORED_FILE_KINDS)});

ALTER TABLE shipments
  ADD COLUMN service text,
  ADD COLUMN label_id text CONSTRAINT shipments_label_id_key UNIQUE,
  ADD COLUMN label_file_id bigint REFERENCES files (id),
  ADD COLUMN label_purchased_at timestamptz,
  ADD COLUMN label_purchased_by_user_id bigint REFERENCES users (id),
  ADD COLUMN ship_from jsonb,
  ADD COLUMN ship_to jsonb,
  ADD COLUMN tracking_url text,
  ADD COLUMN tracking_status text CONSTRAINT shipments_tracking_status_check CHECK (${oneOf('tracking_status', TRACKING_STATUSES)}),
  ADD COLUMN tracking_updated_at timestamptz,
  ADD COLUMN delivered_at timestamptz,
  ADD CONSTRAINT shipments_label_check CHECK ((label_id IS NULL) = (label_purchased_at IS NULL));

CREATE TABLE shipment_rates (
  id bigserial PRIMARY KEY,
  shipment_id bigint NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  rate_id text NOT NULL,
  carrier text NOT NULL,
  service_code text NOT NULL,
  service text NOT NULL,
  amount_cents integer NOT NULL CONSTRAINT shipment_rates_amount_check CHECK (amount_cents >= 0),
  business_days integer,
  ${TIMESTAMPS},
  CONSTRAINT shipment_rates_shipment_id_rate_id_key UNIQUE (shipment_id, rate_id)
);

CREATE TABLE shipment_tracking_events (
  id bigserial PRIMARY KEY,
  shipment_id bigint NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  event_id text NOT NULL,
  status_code text NOT NULL CONSTRAINT shipment_tracking_events_status_code_check CHECK (${oneOf('status_code', TRACKING_STATUSES)}),
  description text,
  location text,
  occurred_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX shipment_tracking_events_shipment_id_occurred_at_idx ON shipment_tracking_events (shipment_id, occurred_at);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE shipment_tracking_events;
DROP TABLE shipment_rates;
ALTER TABLE shipments
  DROP CONSTRAINT shipments_label_check,
  DROP COLUMN delivered_at,
  DROP COLUMN tracking_updated_at,
  DROP COLUMN tracking_status,
  DROP COLUMN tracking_url,
  DROP COLUMN ship_to,
  DROP COLUMN ship_from,
  DROP COLUMN label_purchased_by_user_id,
  DROP COLUMN label_file_id,
  DROP COLUMN label_purchased_at,
  DROP COLUMN label_id,
  DROP COLUMN service;
DELETE FROM files WHERE kind = '${SHIPPING_LABEL_FILE_KIND}';
ALTER TABLE files DROP CONSTRAINT files_kind_check;
ALTER TABLE files ADD CONSTRAINT files_kind_check CHECK (${oneOf('kind', FIRST_STORED_FILE_KINDS)});
`);
};
