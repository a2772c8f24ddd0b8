/** Text messages to patients (docs/sms.md): one row per message, and the numbers that replied STOP. */
import type { EntityKind, Language, TextMessageKind, TextMessageStatus } from '@platform/domain';
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { dbDefault, fk, id, subclass, timestamps, type Fk, type Nullable } from './model-kit';

/** One text message to a patient, like an email in the email log: what it says, its status and attempts. */
export class TextMessage extends Model<InferAttributes<TextMessage>, InferCreationAttributes<TextMessage>> {
  declare id: CreationOptional<number>;
  declare patientId: Fk;
  /** E.164, the patient's mobile number when the message was written. */
  declare toPhone: string;
  declare kind: TextMessageKind;
  declare language: Language;
  /** What was (or would be) sent; a result link's token is redacted once sent. */
  declare body: string;
  declare entityKind: Nullable<EntityKind>;
  declare entityId: Nullable<string>;
  declare status: CreationOptional<TextMessageStatus>;
  declare attempts: CreationOptional<number>;
  /** Twilio's message SID (SM…), once Twilio took it. */
  declare providerSid: Nullable<string>;
  /** Why it failed or was not sent. */
  declare error: Nullable<string>;
  declare sentAt: Nullable<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** A number that replied STOP (or another opt-out word): nothing is texted to it until it replies START. */
export class SmsOptOut extends Model<InferAttributes<SmsOptOut>, InferCreationAttributes<SmsOptOut>> {
  declare phone: string;
  declare keyword: string;
  declare optedOutAt: CreationOptional<Date>;
}

export interface SmsModels {
  TextMessage: typeof TextMessage;
  SmsOptOut: typeof SmsOptOut;
}

export function initSms(sequelize: Sequelize): SmsModels {
  const TextMessageM = subclass(TextMessage);
  TextMessageM.init(
    {
      id: id(),
      patientId: fk(),
      toPhone: { type: DataTypes.TEXT, allowNull: false },
      kind: { type: DataTypes.TEXT, allowNull: false },
      language: { type: DataTypes.TEXT, allowNull: false },
      body: { type: DataTypes.TEXT, allowNull: false },
      entityKind: { type: DataTypes.TEXT },
      entityId: { type: DataTypes.TEXT },
      status: dbDefault(DataTypes.TEXT),
      attempts: dbDefault(DataTypes.INTEGER),
      providerSid: { type: DataTypes.TEXT },
      error: { type: DataTypes.TEXT },
      sentAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'TextMessage', tableName: 'text_messages' },
  );
  const SmsOptOutM = subclass(SmsOptOut);
  SmsOptOutM.init(
    {
      phone: { type: DataTypes.TEXT, primaryKey: true, allowNull: false },
      keyword: { type: DataTypes.TEXT, allowNull: false },
      optedOutAt: dbDefault(DataTypes.DATE),
    },
    { sequelize, modelName: 'SmsOptOut', tableName: 'sms_opt_outs', timestamps: false },
  );
  return { TextMessage: TextMessageM, SmsOptOut: SmsOptOutM };
}
