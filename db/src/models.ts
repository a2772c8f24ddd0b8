/** The model classes of one connection, initialised and associated. */
import type { Sequelize } from 'sequelize';
import { associate } from './associations';
import { initDocuments, type SampleDocument, type StoredFile } from './documents';
import {
  initJobs, type AuditEvent, type CaughtMail, type Email, type EmailCampaignRecipient, type EmailCampaignRun, type Job, type Outbox, type WebhookEvent,
} from './jobs';
import {
  initPeople,
  type Account,
  type AccountAddress,
  type AccountSupportMailbox,
  type AccountMembership,
  type Contact,
  type Department,
  type PasswordResetToken,
  type AccountInvitation,
  type Physician,
  type ProviderStaffRelationship,
  type Technician,
  type User,
} from './people';
import {
  initPatients,
  type FinancialAssistanceRecord,
  type InsurancePlan,
  type Order,
  type Patient,
  type PatientCorrection,
  type PatientInvitation,
} from './patients';
import {
  initSamples,
  type PatientResultLink,
  type Sample,
  type SampleFollowUp,
  type SampleStatusEvent,
  type StudyResponse,
  type Test,
  type TestResult,
} from './samples';
import { initShipments, type Shipment, type ShipmentItem } from './shipments';
import { initPcr, type PcrModels } from './pcr';
import { initStorage, type StorageModels } from './storage';
import { initExtractions, type ExtractionModels } from './extractions';
import { initResearch, type ResearchModels } from './research';
import { initPayments, type PaymentModels } from './payments';
import { initFollowUps, type FollowUpModels } from './follow-ups';
import { initSms, type SmsModels } from './sms';

/** The models of one `Db`: use these for queries (`db.models.Sample.findAll(…)`). */
export interface Models extends PcrModels, StorageModels, ExtractionModels, FollowUpModels, PaymentModels, ResearchModels, SmsModels {
  User: typeof User;
  Account: typeof Account;
  AccountAddress: typeof AccountAddress;
  AccountSupportMailbox: typeof AccountSupportMailbox;
  Department: typeof Department;
  Contact: typeof Contact;
  AccountMembership: typeof AccountMembership;
  AccountInvitation: typeof AccountInvitation;
  Physician: typeof Physician;
  ProviderStaffRelationship: typeof ProviderStaffRelationship;
  Technician: typeof Technician;
  PasswordResetToken: typeof PasswordResetToken;
  Patient: typeof Patient;
  PatientInvitation: typeof PatientInvitation;
  PatientCorrection: typeof PatientCorrection;
  InsurancePlan: typeof InsurancePlan;
  FinancialAssistanceRecord: typeof FinancialAssistanceRecord;
  Order: typeof Order;
  Sample: typeof Sample;
  SampleStatusEvent: typeof SampleStatusEvent;
  Test: typeof Test;
  TestResult: typeof TestResult;
  StudyResponse: typeof StudyResponse;
  SampleFollowUp: typeof SampleFollowUp;
  PatientResultLink: typeof PatientResultLink;
  StoredFile: typeof StoredFile;
  SampleDocument: typeof SampleDocument;
  Shipment: typeof Shipment;
  ShipmentItem: typeof ShipmentItem;
  Job: typeof Job;
  Outbox: typeof Outbox;
  Email: typeof Email;
  AuditEvent: typeof AuditEvent;
  WebhookEvent: typeof WebhookEvent;
  CaughtMail: typeof CaughtMail;
  EmailCampaignRun: typeof EmailCampaignRun;
  EmailCampaignRecipient: typeof EmailCampaignRecipient;
}

export function initModels(sequelize: Sequelize): Models {
  const models: Models = {
    ...initPeople(sequelize),
    ...initPatients(sequelize),
    ...initSamples(sequelize),
    ...initDocuments(sequelize),
    ...initShipments(sequelize),
    ...initJobs(sequelize),
    ...initPcr(sequelize),
    ...initStorage(sequelize),
    ...initExtractions(sequelize),
    ...initFollowUps(sequelize),
    ...initPayments(sequelize),
    ...initResearch(sequelize),
    ...initSms(sequelize),
  };
  associate(models);
  return models;
}
