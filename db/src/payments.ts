/** The payment provider's events (Stripe webhooks), each applied once: its id is the primary key. */
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type NonAttribute, type Sequelize } from 'sequelize';
import { subclass, type Nullable, type NullableFk } from './model-kit';
import type { Models } from './models';
import type { Order } from './patients';

export class PaymentEvent extends Model<InferAttributes<PaymentEvent>, InferCreationAttributes<PaymentEvent>> {
  /** The provider's event id (evt_…). */
  declare eventId: string;
  declare type: string;
  declare paymentIntentId: Nullable<string>;
  /** The order the event was about; null for an intent we do not know. */
  declare orderId: NullableFk;
  declare createdAt: CreationOptional<Date>;

  declare order?: NonAttribute<Order | null>;
}

export interface PaymentModels {
  PaymentEvent: typeof PaymentEvent;
}

export function initPayments(sequelize: Sequelize): PaymentModels {
  const PaymentEventM = subclass(PaymentEvent);
  PaymentEventM.init(
    {
      eventId: { type: DataTypes.TEXT, primaryKey: true, allowNull: false },
      type: { type: DataTypes.TEXT, allowNull: false },
      paymentIntentId: { type: DataTypes.TEXT },
      orderId: { type: DataTypes.BIGINT, allowNull: true },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, modelName: 'PaymentEvent', tableName: 'payment_events', updatedAt: false },
  );
  return { PaymentEvent: PaymentEventM };
}

export function associatePayments(m: Models): void {
  m.PaymentEvent.belongsTo(m.Order, { foreignKey: 'orderId', as: 'order' });
  m.PatientInvitation.belongsTo(m.Order, { foreignKey: 'orderId', as: 'order' });
  m.Order.belongsTo(m.PatientInvitation, { foreignKey: 'invitationId', as: 'invitation' });
  m.Shipment.belongsTo(m.Patient, { foreignKey: 'patientId', as: 'patient' });
}
