/** Samples and their life: status events, tests, result versions, study responses, follow-ups, patient result links. */
import type { FollowUpKind, FollowUpStatus, ParentTestType, RejectionReason, SampleStatus, SampleType, SpecimenCondition, TestName } from '@platform/domain';
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
import type { Job } from './jobs';
import { dbDefault, fk, id, nullableFk, subclass, timestamps, type Fk, type JsonObject, type Nullable, type NullableFk } from './model-kit';
import type { Account, User } from './people';
import type { Order, Patient } from './patients';
import type { QuestionnaireVersion, ResearchProject } from './research';
import type { ShipmentItem } from './shipments';
import type { ActorKind, TestResultStatus } from './values';

export class Sample extends Model<InferAttributes<Sample>, InferCreationAttributes<Sample>> {
  declare id: CreationOptional<number>;
  declare barcode: string;
  declare sampleType: Nullable<SampleType>;
  /** Changed only through the domain's transition table, with a SampleStatusEvent in the same transaction. */
  declare status: CreationOptional<SampleStatus>;
  /** Set while the sample is In Storage: the status it goes back to. */
  declare statusBeforeStorage: Nullable<SampleStatus>;
  declare accountId: NullableFk;
  declare patientId: Fk;
  declare orderId: Fk;
  declare collectedAt: Nullable<Date>;
  declare receivedAt: Nullable<Date>;
  declare receivedByUserId: NullableFk;
  declare rejectionReason: Nullable<RejectionReason>;
  /** The specimen's condition recorded at intake (received or rejected there); null before intake. */
  declare condition: Nullable<SpecimenCondition>;
  /** The technician's note on the condition (required to receive an insufficient specimen). */
  declare conditionNote: Nullable<string>;
  /** Who confirmed at intake that the tube's name and date of birth match the requisition, and when. */
  declare identityConfirmedByUserId: NullableFk;
  declare identityConfirmedAt: Nullable<Date>;
  /** When the sample first reached a final status (Resulted or Rejected): kept by a trigger on its status events, never written here. */
  declare resultedAt: CreationOptional<Nullable<Date>>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare account?: NonAttribute<Account | null>;
  declare patient?: NonAttribute<Patient>;
  declare order?: NonAttribute<Order>;
  declare receivedBy?: NonAttribute<User | null>;
  declare statusEvents?: NonAttribute<SampleStatusEvent[]>;
  declare tests?: NonAttribute<Test[]>;
  declare documents?: NonAttribute<SampleDocument[]>;
  declare followUps?: NonAttribute<SampleFollowUp[]>;
  declare resultLinks?: NonAttribute<PatientResultLink[]>;
  declare shipmentItems?: NonAttribute<ShipmentItem[]>;
}

/** One step of a sample's timeline: who moved it, when, from where to where, and why. */
export class SampleStatusEvent extends Model<InferAttributes<SampleStatusEvent>, InferCreationAttributes<SampleStatusEvent>> {
  declare id: CreationOptional<number>;
  declare sampleId: Fk;
  declare fromStatus: Nullable<SampleStatus>;
  declare toStatus: SampleStatus;
  declare reason: Nullable<string>;
  declare actorUserId: NullableFk;
  declare actorKind: ActorKind;
  declare createdAt: CreationOptional<Date>;

  declare sample?: NonAttribute<Sample>;
  declare actor?: NonAttribute<User | null>;
}

export class Test extends Model<InferAttributes<Test>, InferCreationAttributes<Test>> {
  declare id: CreationOptional<number>;
  declare orderId: Fk;
  declare sampleId: Fk;
  declare name: TestName;
  declare parentType: Nullable<ParentTestType>;
  /** Free text, 'Ordered' at first. */
  declare status: CreationOptional<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare order?: NonAttribute<Order>;
  declare sample?: NonAttribute<Sample>;
  declare results?: NonAttribute<TestResult[]>;
}

/** One version of a test's result. Never edited: a correction is a new version with a reason. */
export class TestResult extends Model<InferAttributes<TestResult>, InferCreationAttributes<TestResult>> {
  declare id: CreationOptional<number>;
  declare testId: Fk;
  declare version: number;
  declare value: string;
  declare scale: Nullable<string>;
  declare status: CreationOptional<TestResultStatus>;
  declare enteredByUserId: Fk;
  declare importJobId: NullableFk;
  /** Must differ from enteredByUserId (database CHECK). */
  declare reviewedByUserId: NullableFk;
  declare reviewedAt: Nullable<Date>;
  declare reviewNote: Nullable<string>;
  declare correctionReason: Nullable<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare test?: NonAttribute<Test>;
  declare enteredBy?: NonAttribute<User>;
  declare reviewedBy?: NonAttribute<User | null>;
  declare importJob?: NonAttribute<Job | null>;
}

/** A participant's answers to a research project's questionnaire: one per participant per project. */
export class StudyResponse extends Model<InferAttributes<StudyResponse>, InferCreationAttributes<StudyResponse>> {
  declare id: CreationOptional<number>;
  declare researchProjectId: Fk;
  /** The questionnaire version the answers were given under (kept when a newer one is published). */
  declare questionnaireVersionId: Fk;
  declare patientId: Fk;
  declare answers: CreationOptional<JsonObject>;
  /** Every required answer is in (computed by the domain's questionnaire on each write). */
  declare complete: CreationOptional<boolean>;
  declare updatedByUserId: NullableFk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare project?: NonAttribute<ResearchProject>;
  declare questionnaireVersion?: NonAttribute<QuestionnaireVersion>;
  declare patient?: NonAttribute<Patient>;
  declare updatedBy?: NonAttribute<User | null>;
}

/**
 * A follow-up of a sample's patient, answered through emailed single-use links
 * (SampleFollowUpLink): a PROSTOX registry survey at an interval after the result, or a question
 * the lab or clinic asks about the sample. Rules and statuses: domain/src/follow-ups.ts.
 */
export class SampleFollowUp extends Model<InferAttributes<SampleFollowUp>, InferCreationAttributes<SampleFollowUp>> {
  declare id: CreationOptional<number>;
  declare sampleId: Fk;
  declare kind: FollowUpKind;
  /** Registry survey: months after the release. */
  declare months: Nullable<number>;
  /** Question: its words, and who asked. */
  declare question: Nullable<string>;
  declare askedByUserId: NullableFk;
  declare status: CreationOptional<FollowUpStatus>;
  declare dueAt: Date;
  declare emailId: NullableFk;
  declare sentAt: Nullable<Date>;
  declare reminderEmailId: NullableFk;
  declare remindedAt: Nullable<Date>;
  declare answeredAt: Nullable<Date>;
  declare answers: Nullable<JsonObject>;
  declare notSendableReason: Nullable<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare sample?: NonAttribute<Sample>;
}

/** A patient's link to a result: unguessable token + date of birth, locked after repeated failures. */
export class PatientResultLink extends Model<InferAttributes<PatientResultLink>, InferCreationAttributes<PatientResultLink>> {
  declare id: CreationOptional<number>;
  declare sampleId: Fk;
  declare tokenHash: string;
  declare dobFailures: CreationOptional<number>;
  declare lockedAt: Nullable<Date>;
  declare revokedAt: Nullable<Date>;
  declare expiresAt: Date;
  declare createdByUserId: NullableFk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare sample?: NonAttribute<Sample>;
  declare createdBy?: NonAttribute<User | null>;
}

export function initSamples(sequelize: Sequelize) {
  const SampleM = subclass(Sample);
  SampleM.init(
    {
      id: id(),
      barcode: { type: DataTypes.TEXT, allowNull: false },
      sampleType: { type: DataTypes.TEXT },
      status: dbDefault(DataTypes.TEXT),
      statusBeforeStorage: { type: DataTypes.TEXT },
      accountId: nullableFk(),
      patientId: fk(),
      orderId: fk(),
      collectedAt: { type: DataTypes.DATE },
      receivedAt: { type: DataTypes.DATE },
      receivedByUserId: nullableFk(),
      rejectionReason: { type: DataTypes.TEXT },
      condition: { type: DataTypes.TEXT },
      conditionNote: { type: DataTypes.TEXT },
      identityConfirmedByUserId: nullableFk(),
      identityConfirmedAt: { type: DataTypes.DATE },
      resultedAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'Sample', tableName: 'samples' },
  );

  const SampleStatusEventM = subclass(SampleStatusEvent);
  SampleStatusEventM.init(
    {
      id: id(),
      sampleId: fk(),
      fromStatus: { type: DataTypes.TEXT },
      toStatus: { type: DataTypes.TEXT, allowNull: false },
      reason: { type: DataTypes.TEXT },
      actorUserId: nullableFk(),
      actorKind: { type: DataTypes.TEXT, allowNull: false },
      createdAt: timestamps().createdAt,
    },
    { sequelize, modelName: 'SampleStatusEvent', tableName: 'sample_status_events', updatedAt: false },
  );

  const TestM = subclass(Test);
  TestM.init(
    {
      id: id(),
      orderId: fk(),
      sampleId: fk(),
      name: { type: DataTypes.TEXT, allowNull: false },
      parentType: { type: DataTypes.TEXT },
      status: dbDefault(DataTypes.TEXT),
      ...timestamps(),
    },
    { sequelize, modelName: 'Test', tableName: 'tests' },
  );

  const TestResultM = subclass(TestResult);
  TestResultM.init(
    {
      id: id(),
      testId: fk(),
      version: { type: DataTypes.INTEGER, allowNull: false },
      value: { type: DataTypes.TEXT, allowNull: false },
      scale: { type: DataTypes.TEXT },
      status: dbDefault(DataTypes.TEXT),
      enteredByUserId: fk(),
      importJobId: nullableFk(),
      reviewedByUserId: nullableFk(),
      reviewedAt: { type: DataTypes.DATE },
      reviewNote: { type: DataTypes.TEXT },
      correctionReason: { type: DataTypes.TEXT },
      ...timestamps(),
    },
    { sequelize, modelName: 'TestResult', tableName: 'test_results' },
  );

  const StudyResponseM = subclass(StudyResponse);
  StudyResponseM.init(
    {
      id: id(),
      researchProjectId: fk(),
      questionnaireVersionId: fk(),
      patientId: fk(),
      answers: dbDefault(DataTypes.JSONB),
      complete: dbDefault(DataTypes.BOOLEAN),
      updatedByUserId: nullableFk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'StudyResponse', tableName: 'study_responses' },
  );

  const SampleFollowUpM = subclass(SampleFollowUp);
  SampleFollowUpM.init(
    {
      id: id(),
      sampleId: fk(),
      kind: { type: DataTypes.TEXT, allowNull: false },
      months: { type: DataTypes.INTEGER },
      question: { type: DataTypes.TEXT },
      askedByUserId: nullableFk(),
      status: dbDefault(DataTypes.TEXT),
      dueAt: { type: DataTypes.DATE, allowNull: false },
      emailId: nullableFk(),
      sentAt: { type: DataTypes.DATE },
      reminderEmailId: nullableFk(),
      remindedAt: { type: DataTypes.DATE },
      answeredAt: { type: DataTypes.DATE },
      answers: { type: DataTypes.JSONB },
      notSendableReason: { type: DataTypes.TEXT },
      ...timestamps(),
    },
    { sequelize, modelName: 'SampleFollowUp', tableName: 'sample_follow_ups' },
  );

  const PatientResultLinkM = subclass(PatientResultLink);
  PatientResultLinkM.init(
    {
      id: id(),
      sampleId: fk(),
      tokenHash: { type: DataTypes.TEXT, allowNull: false },
      dobFailures: dbDefault(DataTypes.INTEGER),
      lockedAt: { type: DataTypes.DATE },
      revokedAt: { type: DataTypes.DATE },
      expiresAt: { type: DataTypes.DATE, allowNull: false },
      createdByUserId: nullableFk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'PatientResultLink', tableName: 'patient_result_links' },
  );

  return {
    Sample: SampleM,
    SampleStatusEvent: SampleStatusEventM,
    Test: TestM,
    TestResult: TestResultM,
    StudyResponse: StudyResponseM,
    SampleFollowUp: SampleFollowUpM,
    PatientResultLink: PatientResultLinkM,
  };
}
