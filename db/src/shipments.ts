/** Kit shipments of an account and their items. */
import type { ItemKind, PostalAddress, ShipmentStatus, TrackingStatus } from '@platform/domain';
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import type { SampleDocument } from './documents';
import { dbDefault, fk, id, nullableFk, subclass, timestamps, type Fk, type Nullable, type NullableFk } from './model-kit';
import type { Account, User } from './people';
import type { Sample } from './samples';

export class Shipment extends Model<InferAttributes<Shipment>, InferCreationAttributes<Shipment>> {
  declare id: CreationOptional<number>;
  declare accountId: Fk;
  declare status: CreationOptional<ShipmentStatus>;
  declare carrier: Nullable<string>;
  declare trackingNumber: Nullable<string>;
  /** The shipping service's order id (its webhooks name it). */
  declare externalOrderId: Nullable<string>;
  declare rateCents: Nullable<number>;
  declare createdByUserId: NullableFk;
  declare shippedAt: Nullable<Date>;
  /** Set when the kit ships to a patient (a patient order) rather than from the clinic to the lab. */
  declare patientId: NullableFk;
  /** The carrier's service of the label bought (UPS 2nd Day Air...). */
  declare service: Nullable<string>;
  /** The shipping service's id of the label bought (set with labelPurchasedAt). */
  declare labelId: Nullable<string>;
  /** The label's PDF (files, kind 'Shipping Label'). */
  declare labelFileId: NullableFk;
  declare labelPurchasedAt: Nullable<Date>;
  declare labelPurchasedByUserId: NullableFk;
  /** The addresses the label was bought for, as they were then. */
  declare shipFrom: Nullable<PostalAddress & { name: string; phone: string | null }>;
  declare shipTo: Nullable<PostalAddress & { name: string; phone: string | null }>;
  declare trackingUrl: Nullable<string>;
  /** The carrier's last status of the parcel (order.tracking webhooks). */
  declare trackingStatus: Nullable<TrackingStatus>;
  declare trackingUpdatedAt: Nullable<Date>;
  declare deliveredAt: Nullable<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account>;
  declare createdBy?: NonAttribute<User | null>;
  declare items?: NonAttribute<ShipmentItem[]>;
}

/** A shipped thing: a sample's kit (kind Test, sampleId set) or a document (kind Document, documentId set). */
export class ShipmentItem extends Model<InferAttributes<ShipmentItem>, InferCreationAttributes<ShipmentItem>> {
  declare id: CreationOptional<number>;
  declare shipmentId: Fk;
  declare kind: ItemKind;
  declare sampleId: NullableFk;
  declare documentId: NullableFk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare shipment?: NonAttribute<Shipment>;
  declare sample?: NonAttribute<Sample | null>;
  declare document?: NonAttribute<SampleDocument | null>;
}

export function initShipments(sequelize: Sequelize) {
  const ShipmentM = subclass(Shipment);
  ShipmentM.init(
    {
      id: id(),
      accountId: fk(),
      status: dbDefault(DataTypes.TEXT),
      carrier: { type: DataTypes.TEXT },
      trackingNumber: { type: DataTypes.TEXT },
      externalOrderId: { type: DataTypes.TEXT },
      rateCents: { type: DataTypes.INTEGER },
      createdByUserId: nullableFk(),
      shippedAt: { type: DataTypes.DATE },
      patientId: nullableFk(),
      service: { type: DataTypes.TEXT },
      labelId: { type: DataTypes.TEXT },
      labelFileId: nullableFk(),
      labelPurchasedAt: { type: DataTypes.DATE },
      labelPurchasedByUserId: nullableFk(),
      shipFrom: { type: DataTypes.JSONB },
      shipTo: { type: DataTypes.JSONB },
      trackingUrl: { type: DataTypes.TEXT },
      trackingStatus: { type: DataTypes.TEXT },
      trackingUpdatedAt: { type: DataTypes.DATE },
      deliveredAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'Shipment', tableName: 'shipments' },
  );

  const ShipmentItemM = subclass(ShipmentItem);
  ShipmentItemM.init(
    {
      id: id(),
      shipmentId: fk(),
      kind: { type: DataTypes.TEXT, allowNull: false },
      sampleId: nullableFk(),
      documentId: nullableFk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'ShipmentItem', tableName: 'shipment_items' },
  );

  return { Shipment: ShipmentM, ShipmentItem: ShipmentItemM };
}
