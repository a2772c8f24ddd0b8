/** Background work and records: jobs, the outbox, the email log, the audit log, webhook idempotency, caught mail. */
import type { EmailCampaign, EntityKind, JobStatus } from '@platform/domain';
import {
  DataTypes,
  Model,
  type CreationOptional,
  type InferAttributes,
  type InferCreationAttributes,
  type NonAttribute,
  type Sequelize,
} from 'sequelize';
import { dbDefault, id, nullableFk, subclass, timestamps, type JsonObject, type Nullable, type NullableFk } from './model-kit';
import type { User } from './people';
import type { AuditActorKind, EmailStatus, OutboxStatus } from './values';

/** A long piece of work (an import, for example) whose progress and outcome the SPA polls. */
export class Job extends Model<InferAttributes<Job>, InferCreationAttributes<Job>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare status: CreationOptional<JobStatus>;
  /** 0..100 */
  declare progress: CreationOptional<number>;
  declare error: Nullable<string>;
  /** Any JSON object (an interface-typed payload fits). */
  declare payload: CreationOptional<object>;
  declare result: Nullable<unknown>;
  declare createdByUserId: NullableFk;
  declare attempts: CreationOptional<number>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
  declare finishedAt: Nullable<Date>;

  declare createdBy?: NonAttribute<User | null>;
}

/** Work to enqueue after commit (table `outbox`); the relay enqueues it with jobId = queueJobId. */
export class Outbox extends Model<InferAttributes<Outbox>, InferCreationAttributes<Outbox>> {
  declare id: CreationOptional<number>;
  declare jobName: string;
  /** Any JSON object: what the relay hands to BullMQ as the job's data. */
  declare payload: object;
  declare idempotencyKey: string;
  /**
   * The BullMQ job id: random, so it is unique across databases. An id made from the row id would
   * collide, after a restore or a new database, with finished jobs Redis still keeps, and never run.
   */
  declare queueJobId: CreationOptional<string>;
  declare status: CreationOptional<OutboxStatus>;
  declare enqueuedAt: Nullable<Date>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** The email log: every email the product sends, readable by admins. */
export class Email extends Model<InferAttributes<Email>, InferCreationAttributes<Email>> {
  declare id: CreationOptional<number>;
  declare toAddress: string;
  declare subject: string;
  declare textBody: string;
  declare htmlBody: Nullable<string>;
  declare template: Nullable<string>;
  declare entityKind: Nullable<EntityKind>;
  declare entityId: Nullable<string>;
  declare status: CreationOptional<EmailStatus>;
  declare messageId: Nullable<string>;
  declare sentAt: Nullable<Date>;
  declare error: Nullable<string>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** A bulk send of one of the campaigns to an audience of provider users, done by one job. */
export class EmailCampaignRun extends Model<InferAttributes<EmailCampaignRun>, InferCreationAttributes<EmailCampaignRun>> {
  declare id: CreationOptional<number>;
  declare campaign: EmailCampaign;
  /** The audience filter as the admin chose it. */
  declare audience: CreationOptional<object>;
  declare recipientCount: CreationOptional<number>;
  declare jobId: NullableFk;
  declare createdByUserId: NullableFk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

/** One person a campaign writes to; emailId is set with the email row, in one transaction. */
export class EmailCampaignRecipient extends Model<InferAttributes<EmailCampaignRecipient>, InferCreationAttributes<EmailCampaignRecipient>> {
  declare id: CreationOptional<number>;
  declare campaignId: number;
  declare contactId: number;
  declare toAddress: string;
  declare emailId: NullableFk;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;

  declare email?: NonAttribute<Email | null>;
}

/** Append-only (the database refuses UPDATE, DELETE and TRUNCATE). No foreign key: the log outlives users. */
export class AuditEvent extends Model<InferAttributes<AuditEvent>, InferCreationAttributes<AuditEvent>> {
  declare id: CreationOptional<number>;
  declare at: CreationOptional<Date>;
  declare actorUserId: Nullable<number>;
  declare actorKind: AuditActorKind;
  declare action: string;
  declare entityKind: Nullable<string>;
  declare entityId: Nullable<string>;
  declare ip: Nullable<string>;
  declare requestId: Nullable<string>;
  declare details: CreationOptional<JsonObject>;
  /** The row's place in the hash chain, the hash of the row before it and its own: null until the sealer seals it (server/src/audit-trail/chain.ts). */
  declare chainSeq: CreationOptional<Nullable<number>>;
  declare prevHash: CreationOptional<Nullable<string>>;
  declare hash: CreationOptional<Nullable<string>>;
}

/** A webhook event already handled (unique per source and event id). */
export class WebhookEvent extends Model<InferAttributes<WebhookEvent>, InferCreationAttributes<WebhookEvent>> {
  declare id: CreationOptional<number>;
  declare source: string;
  declare eventId: string;
  declare receivedAt: CreationOptional<Date>;
}

/** A message received by the dev/test SMTP catcher. */
export class CaughtMail extends Model<InferAttributes<CaughtMail>, InferCreationAttributes<CaughtMail>> {
  declare id: CreationOptional<number>;
  declare messageId: Nullable<string>;
  declare fromAddress: Nullable<string>;
  declare toAddresses: CreationOptional<string[]>;
  declare subject: Nullable<string>;
  declare textBody: Nullable<string>;
  declare htmlBody: Nullable<string>;
  declare raw: string;
  declare receivedAt: CreationOptional<Date>;
}

export function initJobs(sequelize: Sequelize) {
  const JobM = subclass(Job);
  JobM.init(
    {
      id: id(),
      name: { type: DataTypes.TEXT, allowNull: false },
      status: dbDefault(DataTypes.TEXT),
      progress: dbDefault(DataTypes.INTEGER),
      error: { type: DataTypes.TEXT },
      payload: dbDefault(DataTypes.JSONB),
      result: { type: DataTypes.JSONB },
      createdByUserId: nullableFk(),
      attempts: dbDefault(DataTypes.INTEGER),
      ...timestamps(),
      finishedAt: { type: DataTypes.DATE },
    },
    { sequelize, modelName: 'Job', tableName: 'jobs' },
  );

  const OutboxM = subclass(Outbox);
  OutboxM.init(
    {
      id: id(),
      jobName: { type: DataTypes.TEXT, allowNull: false },
      payload: { type: DataTypes.JSONB, allowNull: false },
      idempotencyKey: { type: DataTypes.TEXT, allowNull: false },
      queueJobId: dbDefault(DataTypes.UUID),
      status: dbDefault(DataTypes.TEXT),
      enqueuedAt: { type: DataTypes.DATE },
      ...timestamps(),
    },
    { sequelize, modelName: 'Outbox', tableName: 'outbox' },
  );

  const EmailM = subclass(Email);
  EmailM.init(
    {
      id: id(),
      toAddress: { type: DataTypes.TEXT, allowNull: false },
      subject: { type: DataTypes.TEXT, allowNull: false },
      textBody: { type: DataTypes.TEXT, allowNull: false },
      htmlBody: { type: DataTypes.TEXT },
      template: { type: DataTypes.TEXT },
      entityKind: { type: DataTypes.TEXT },
      entityId: { type: DataTypes.TEXT },
      status: dbDefault(DataTypes.TEXT),
      messageId: { type: DataTypes.TEXT },
      sentAt: { type: DataTypes.DATE },
      error: { type: DataTypes.TEXT },
      ...timestamps(),
    },
    { sequelize, modelName: 'Email', tableName: 'emails' },
  );

  const AuditEventM = subclass(AuditEvent);
  AuditEventM.init(
    {
      id: id(),
      at: dbDefault(DataTypes.DATE),
      actorUserId: { type: DataTypes.BIGINT },
      actorKind: { type: DataTypes.TEXT, allowNull: false },
      action: { type: DataTypes.TEXT, allowNull: false },
      entityKind: { type: DataTypes.TEXT },
      entityId: { type: DataTypes.TEXT },
      ip: { type: DataTypes.TEXT },
      requestId: { type: DataTypes.TEXT },
      details: dbDefault(DataTypes.JSONB),
      chainSeq: { type: DataTypes.BIGINT },
      prevHash: { type: DataTypes.TEXT },
      hash: { type: DataTypes.TEXT },
    },
    { sequelize, modelName: 'AuditEvent', tableName: 'audit_events', timestamps: false },
  );

  const WebhookEventM = subclass(WebhookEvent);
  WebhookEventM.init(
    {
      id: id(),
      source: { type: DataTypes.TEXT, allowNull: false },
      eventId: { type: DataTypes.TEXT, allowNull: false },
      receivedAt: dbDefault(DataTypes.DATE),
    },
    { sequelize, modelName: 'WebhookEvent', tableName: 'webhook_events', timestamps: false },
  );

  const CaughtMailM = subclass(CaughtMail);
  CaughtMailM.init(
    {
      id: id(),
      messageId: { type: DataTypes.TEXT },
      fromAddress: { type: DataTypes.TEXT },
      toAddresses: dbDefault(DataTypes.ARRAY(DataTypes.TEXT)),
      subject: { type: DataTypes.TEXT },
      textBody: { type: DataTypes.TEXT },
      htmlBody: { type: DataTypes.TEXT },
      raw: { type: DataTypes.TEXT, allowNull: false },
      receivedAt: dbDefault(DataTypes.DATE),
    },
    { sequelize, modelName: 'CaughtMail', tableName: 'caught_mail', timestamps: false },
  );

  const EmailCampaignRunM = subclass(EmailCampaignRun);
  EmailCampaignRunM.init(
    {
      id: id(),
      campaign: { type: DataTypes.TEXT, allowNull: false },
      audience: dbDefault(DataTypes.JSONB),
      recipientCount: dbDefault(DataTypes.INTEGER),
      jobId: nullableFk(),
      createdByUserId: nullableFk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'EmailCampaignRun', tableName: 'email_campaigns' },
  );

  const EmailCampaignRecipientM = subclass(EmailCampaignRecipient);
  EmailCampaignRecipientM.init(
    {
      id: id(),
      campaignId: { type: DataTypes.BIGINT, allowNull: false },
      contactId: { type: DataTypes.BIGINT, allowNull: false },
      toAddress: { type: DataTypes.TEXT, allowNull: false },
      emailId: nullableFk(),
      ...timestamps(),
    },
    { sequelize, modelName: 'EmailCampaignRecipient', tableName: 'email_campaign_recipients' },
  );

  return {
    Job: JobM,
    Outbox: OutboxM,
    Email: EmailM,
    EmailCampaignRun: EmailCampaignRunM,
    EmailCampaignRecipient: EmailCampaignRecipientM,
    AuditEvent: AuditEventM,
    WebhookEvent: WebhookEventM,
    CaughtMail: CaughtMailM,
  };
}
