/** Patients and their orders: patients, invitations, insurance plans, financial assistance, orders. */
import type { AccessStatus, Language, PatientProduct, PaymentMethod, PaymentStatus, Portal, SmsConsentSource, TestOrigin } from '@platform/domain';
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import { dbDefault, fk, id, nullableFk, subclass, timestamps, type Fk, type JsonObject, type Nullable, type NullableFk } from './model-kit';
import type { Account, Physician, User } from './people';
import type { Sample, StudyResponse, Test } from './samples';
import type { InvitationStatus } from './values';

/** A patient, or a research participant known only by a study id (no name, no date of birth). */
export class Patient extends Model<InferAttributes<Patient>, InferCreationAttributes<Patient>> {
  declare id: CreationOptional<number>;
  /** null for a patient who ordered for themselves. */
  declare accountId: NullableFk;
  declare firstName: Nullable<string>;
  declare lastName: Nullable<string>;
  /** YYYY-MM-DD */
  declare dateOfBirth: Nullable<string>;
  /** A research participant's study id (then no name and no date of birth are kept). */
  declare studyId: Nullable<string>;
  declare sex: Nullable<string>;
  declare email: Nullable<string>;
  declare phone: Nullable<string>;
  declare addressLine1: Nullable<string>;
  declare addressLine2: Nullable<string>;
  declare city: Nullable<string>;
  declare state: Nullable<string>;
  declare postalCode: Nullable<string>;
  declare country: Nullable<string>;
  declare medicalRecordNumber: Nullable<string>;
  /** The language of the patient's pages and emails (set when they order or switch on their result page). */
  declare preferredLanguage: CreationOptional<Language>;
  /** E.164; texts go here only while smsConsent is true (docs/sms.md). */
  declare mobilePhone: CreationOptional<Nullable<string>>;
  declare smsConsent: CreationOptional<boolean>;
  /** When and where the consent to texts was given (or last withdrawn). */
  declare smsConsentAt: CreationOptional<Nullable<Date>>;
  declare smsConsentSource: CreationOptional<Nullable<SmsConsentSource>>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account | null>;
  declare orders?: NonAttribute<Order[]>;
  declare samples?: NonAttribute<Sample[]>;
  declare financialAssistanceRecords?: NonAttribute<FinancialAssistanceRecord[]>;
  declare invitations?: NonAttribute<PatientInvitation[]>;
  declare studyResponses?: NonAttribute<StudyResponse[]>;
}

export class PatientInvitation extends Model<InferAttributes<PatientInvitation>, InferCreationAttributes<PatientInvitation>> {
  declare id: CreationOptional<number>;
  declare accountId: Fk;
  declare patientId: NullableFk;
  declare email: string;
  declare firstName: Nullable<string>;
  declare lastName: Nullable<string>;
  declare status: CreationOptional<InvitationStatus>;
  /** sha256 of the token sent by email; the token itself is never stored. */
  declare tokenHash: string;
  declare createdByUserId: NullableFk;
  declare expiresAt: Date;
  /** The product the link opens the order page of. */
  declare product: PatientProduct;
  /** The order placed with it (set with usedAt, in the order's transaction). */
  declare orderId: NullableFk;
  declare usedAt: Nullable<Date>;
  declare lastSentAt: Nullable<Date>;
  declare sendCount: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account>;
  declare patient?: NonAttribute<Patient | null>;
  declare createdBy?: NonAttribute<User | null>;
  declare order?: NonAttribute<Order | null>;
}

export class InsurancePlan extends Model<InferAttributes<InsurancePlan>, InferCreationAttributes<InsurancePlan>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare payerCode: Nullable<string>;
  declare isActive: CreationOptional<boolean>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export class FinancialAssistanceRecord extends Model<
  InferAttributes<FinancialAssistanceRecord>,
  InferCreationAttributes<FinancialAssistanceRecord>
> {
  declare id: CreationOptional<number>;
  declare patientId: Fk;
  declare status: CreationOptional<AccessStatus>;
  declare householdSize: Nullable<number>;
  declare annualIncomeCents: Nullable<number>;
  /** What the patient pays under the program, in cents. */
  declare approvedPriceCents: Nullable<number>;
  /** YYYY-MM-DD: the last day the record applies. */
  declare validUntil: Nullable<string>;
  declare createdByUserId: NullableFk;
  declare decidedByUserId: NullableFk;
  declare decidedAt: Nullable<Date>;
  declare notes: Nullable<string>;
  /** SHA-256 of the assistance code emailed with the grant (null on records made before codes: they cannot be used at payment). */
  declare codeHash: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare patient?: NonAttribute<Patient>;
  declare decidedBy?: NonAttribute<User | null>;
  declare createdBy?: NonAttribute<User | null>;
}

export class Order extends Model<InferAttributes<Order>, InferCreationAttributes<Order>> {
  declare id: CreationOptional<number>;
  /** RF_/RG_ + 9 digits or RPD + 10 digits. */
  declare orderNumber: string;
  declare accountId: NullableFk;
  declare patientId: Fk;
  declare physicianId: NullableFk;
  declare origin: TestOrigin;
  declare portal: Portal;
  declare createdByUserId: NullableFk;
  declare attestations: Nullable<JsonObject>;
  declare priceCents: Nullable<number>;
  declare paymentStatus: Nullable<PaymentStatus>;
  declare stripePaymentIntentId: Nullable<string>;
  declare referralSource: Nullable<string>;
  declare insurancePlanId: NullableFk;
  // Patient orders (domain/src/patient-ordering.ts); null on clinic orders.
  declare product: Nullable<PatientProduct>;
  declare eligibilityAnswers: Nullable<JsonObject>;
  declare paymentMethod: Nullable<PaymentMethod>;
  declare mirakind: CreationOptional<boolean>;
  /** The tax-deductible donation part of a MiraKind price, in cents. */
  declare donationCents: Nullable<number>;
  declare insuranceMemberId: Nullable<string>;
  declare financialAssistanceRecordId: NullableFk;
  /** sha256 of the token the ordering browser keeps; the token itself is never stored. */
  declare orderTokenHash: Nullable<string>;
  declare invitationId: NullableFk;
  declare referralOther: Nullable<string>;
  declare signedOffAt: Nullable<Date>;
  declare signedOffByUserId: NullableFk;
  declare cancelledAt: Nullable<Date>;
  declare cancelledByUserId: NullableFk;
  declare cancellationReason: Nullable<string>;
  declare paidAt: Nullable<Date>;
  declare refundedAt: Nullable<Date>;
  /** The research project a Research Portal order is for. */
  declare researchProjectId: NullableFk;
  /** ICD-10-CM codes with CMS's description as they were when the order was placed ([] when none). */
  declare diagnosisCodes: CreationOptional<OrderDiagnosis[]>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account | null>;
  declare patient?: NonAttribute<Patient>;
  declare physician?: NonAttribute<Physician | null>;
  declare insurancePlan?: NonAttribute<InsurancePlan | null>;
  declare createdBy?: NonAttribute<User | null>;
  declare invitation?: NonAttribute<PatientInvitation | null>;
  declare samples?: NonAttribute<Sample[]>;
  declare tests?: NonAttribute<Test[]>;
}

/** One diagnosis code of an order, stored without its dot (C61, Z8546). */
export interface OrderDiagnosis { code: string; description: string }

/** A correction of a patient's details by their clinic: only the changed fields, before and after. */
export class PatientCorrection extends Model<InferAttributes<PatientCorrection>, InferCreationAttributes<PatientCorrection>> {
  declare id: CreationOptional<number>;
  declare patientId: Fk;
  declare accountId: NullableFk;
  declare correctedByUserId: NullableFk;
  declare reason: string;
  declare before: JsonObject;
  declare after: JsonObject;
  declare createdAt: CreationOptional<Date>;
}

export function initPatients(sequelize: Sequelize) {
  const PatientM = subclass(Patient);
  PatientM.init(
    {
      id: id(),
      accountId: nullableFk(),
      // Null only for a research participant, who has a study id instead (patients_identity_check).
      firstName: { type: DataTypes.TEXT },
      lastName: { type: DataTypes.TEXT },
      dateOfBirth: { type: DataTypes.DATEONLY },
      studyId: { type: DataTypes.TEXT },
      sex: { type: DataTypes.TEXT },
      email: { type: DataTypes.TEXT },
      phone: { type: DataTypes.TEXT },
      addressLine1: { type: DataTypes.TEXT },
      addressLine2: { type: DataTypes.TEXT },
      city: { type: DataTypes.TEXT },
      state: { type: DataTypes.TEXT },
      postalCode: { type: DataTypes.TEXT },
      country: { type: DataTypes.TEXT },
      medicalRecordNumber: { type: DataTypes.TEXT },
      preferredLanguage: dbDefault(DataTypes.TEXT),
      mobilePhone: { type: DataTypes.TEXT },
      smsConsent: dbDefault(DataTypes.BOOLEAN),
      smsConsentAt: { type: DataTypes.DATE },
      smsConsentSource: { type: DataTypes.TEXT },
      ...timestamps(),
    },
    { sequelize, modelName: 'Patient', tableName: 'patients' },
  );

  const PatientInvitationM = subclass(PatientInvitation);
  PatientInvitationM.init(
    {
      id: id(),
      accountId: fk(),
      patientId: nullableFk(),
      email: { type: DataTypes.TEXT, allowNull: false },
      firstName: { type: DataTypes.TEXT },
      lastName: { type: DataTypes.TEXT },
      status: dbDefault(DataTypes.TEXT),
      tokenHash: { type: DataTypes.TEXT, allowNull: false },
      createdByUserId: nullableFk(),
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      product: { type: DataTypes.TEXT, allowNull: false },
      orderId: nullableFk(),
      usedAt: { type: DataTypes.DATE },
      lastSentAt: { type: DataTypes.DATE },
      sendCount: dbDefault(DataTypes.INTEGER),
      ...timestamps(),
    },
    { sequelize, modelName: 'PatientInvitation', tableName: 'patient_invitations' },
  );

  const InsurancePlanM = subclass(InsurancePlan);
  InsurancePlanM.init(
    {
      id: id(),
      name: { type: DataTypes.TEXT, allowNull: false },
      payerCode: { type: DataTypes.TEXT },
      isActive: dbDefault(DataTypes.BOOLEAN),
      ...timestamps(),
    },
    { sequelize, modelName: 'InsurancePlan', tableName: 'insurance_plans' },
  );

  const FinancialAssistanceRecordM = subclass(FinancialAssistanceRecord);
  FinancialAssistanceRecordM.init(
    {
      id: id(),
      patientId: fk(),
      status: dbDefault(DataTypes.TEXT),
      householdSize: { type: DataTypes.INTEGER },
      annualIncomeCents: { type: DataTypes.BIGINT },
      approvedPriceCents: { type: DataTypes.INTEGER },
      validUntil: { type: DataTypes.DATEONLY },
      createdByUserId: nullableFk(),
      decidedByUserId: nullableFk(),
      decidedAt: { type: DataTypes.DATE },
      notes: { type: DataTypes.TEXT },
      codeHash: { type: DataTypes.TEXT },
      ...timestamps(),
    },
    { sequelize, modelName: 'FinancialAssistanceRecord', tableName: 'financial_assistance_records' },
  );

  const OrderM = subclass(Order);
  OrderM.init(
    {
      id: id(),
      orderNumber: { type: DataTypes.TEXT, allowNull: false },
      accountId: nullableFk(),
      patientId: fk(),
      physicianId: nullableFk(),
      origin: { type: DataTypes.TEXT, allowNull: false },
      portal: { type: DataTypes.TEXT, allowNull: false },
      createdByUserId: nullableFk(),
      attestations: { type: DataTypes.JSONB },
      priceCents: { type: DataTypes.INTEGER },
      paymentStatus: { type: DataTypes.TEXT },
      stripePaymentIntentId: { type: DataTypes.TEXT },
      referralSource: { type: DataTypes.TEXT },
      insurancePlanId: nullableFk(),
      product: { type: DataTypes.TEXT },
      eligibilityAnswers: { type: DataTypes.JSONB },
      paymentMethod: { type: DataTypes.TEXT },
      mirakind: dbDefault(DataTypes.BOOLEAN),
      donationCents: { type: DataTypes.INTEGER },
      insuranceMemberId: { type: DataTypes.TEXT },
      financialAssistanceRecordId: nullableFk(),
      orderTokenHash: { type: DataTypes.TEXT },
      invitationId: nullableFk(),
      referralOther: { type: DataTypes.TEXT },
      signedOffAt: { type: DataTypes.DATE },
      signedOffByUserId: nullableFk(),
      cancelledAt: { type: DataTypes.DATE },
      cancelledByUserId: nullableFk(),
      cancellationReason: { type: DataTypes.TEXT },
      paidAt: { type: DataTypes.DATE },
      refundedAt: { type: DataTypes.DATE },
      researchProjectId: nullableFk(),
      diagnosisCodes: dbDefault(DataTypes.JSONB),
      ...timestamps(),
    },
    { sequelize, modelName: 'Order', tableName: 'orders' },
  );

  const PatientCorrectionM = subclass(PatientCorrection);
  PatientCorrectionM.init(
    {
      id: id(),
      patientId: fk(),
      accountId: nullableFk(),
      correctedByUserId: nullableFk(),
      reason: { type: DataTypes.TEXT, allowNull: false },
      before: { type: DataTypes.JSONB, allowNull: false },
      after: { type: DataTypes.JSONB, allowNull: false },
      createdAt: { type: DataTypes.DATE, allowNull: false },
    },
    { sequelize, modelName: 'PatientCorrection', tableName: 'patient_corrections', updatedAt: false },
  );

  return {
    Patient: PatientM,
    PatientInvitation: PatientInvitationM,
    InsurancePlan: InsurancePlanM,
    FinancialAssistanceRecord: FinancialAssistanceRecordM,
    Order: OrderM,
    PatientCorrection: PatientCorrectionM,
  };
}
