/** Stored files, the documents of a sample (reports, requisition forms) and kit shipments. */
import { DOCUMENT_TYPES, FIRST_STORED_FILE_KINDS, ITEM_KINDS, ItemKind, SHIPMENT_STATUSES, ShipmentStatus } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE files (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CONSTRAINT files_kind_check CHECK (${oneOf('kind', FIRST_STORED_FILE_KINDS)}),
  name text NOT NULL,
  content_type text NOT NULL,
  size_bytes bigint NOT NULL CONSTRAINT files_size_bytes_check CHECK (size_bytes >= 0),
  sha256 text NOT NULL CONSTRAINT files_sha256_check CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  content bytea NOT NULL,
  uploaded_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS}
);
CREATE INDEX files_sha256_idx ON files (sha256);

-- A corrected report is a new version; the earlier one is kept (superseded_at set).
CREATE TABLE documents (
  id bigserial PRIMARY KEY,
  type text NOT NULL CONSTRAINT documents_type_check CHECK (${oneOf('type', DOCUMENT_TYPES)}),
  sample_id bigint NOT NULL REFERENCES samples (id),
  file_id bigint NOT NULL REFERENCES files (id),
  version integer NOT NULL DEFAULT 1 CONSTRAINT documents_version_check CHECK (version >= 1),
  corrected boolean NOT NULL DEFAULT false,
  superseded_at timestamptz,
  ${TIMESTAMPS},
  CONSTRAINT documents_sample_id_type_version_key UNIQUE (sample_id, type, version)
);
CREATE INDEX documents_file_id_idx ON documents (file_id);

CREATE TABLE shipments (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  status text NOT NULL DEFAULT ${literal(ShipmentStatus.NotReadyToShip)}
    CONSTRAINT shipments_status_check CHECK (${oneOf('status', SHIPMENT_STATUSES)}),
  carrier text,
  tracking_number text,
  external_order_id text CONSTRAINT shipments_external_order_id_key UNIQUE,
  rate_cents integer CONSTRAINT shipments_rate_cents_check CHECK (rate_cents >= 0),
  created_by_user_id bigint REFERENCES users (id),
  shipped_at timestamptz,
  ${TIMESTAMPS}
);
CREATE INDEX shipments_account_created_at_idx ON shipments (account_id, created_at);

-- An item is a sample's kit (kind Test) or a document (kind Document): exactly one of the two is set.
CREATE TABLE shipment_items (
  id bigserial PRIMARY KEY,
  shipment_id bigint NOT NULL REFERENCES shipments (id) ON DELETE CASCADE,
  kind text NOT NULL CONSTRAINT shipment_items_kind_check CHECK (${oneOf('kind', ITEM_KINDS)}),
  sample_id bigint REFERENCES samples (id),
  document_id bigint REFERENCES documents (id),
  ${TIMESTAMPS},
  CONSTRAINT shipment_items_one_target_check CHECK (
    (kind = ${literal(ItemKind.Test)} AND sample_id IS NOT NULL AND document_id IS NULL)
    OR (kind = ${literal(ItemKind.Document)} AND document_id IS NOT NULL AND sample_id IS NULL)
  )
);
CREATE INDEX shipment_items_shipment_id_idx ON shipment_items (shipment_id);
CREATE INDEX shipment_items_sample_id_idx ON shipment_items (sample_id);
CREATE INDEX shipment_items_document_id_idx ON shipment_items (document_id);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE shipment_items;
DROP TABLE shipments;
DROP TABLE documents;
DROP TABLE files;
`);
};
