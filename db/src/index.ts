/**
 * @platform/db: the PostgreSQL side shared by api and worker.
 *
 *   const db = connect(process.env.DATABASE_URL);
 *   try { await createMigrator(db.sequelize).up(); … db.models.Sample.findAll(…) } finally { await db.close(); }
 *
 * Query through `db.models.X` (each connection initialises its own subclasses of the classes
 * exported here; the exported classes are for types and `instanceof`).
 */
export { connect, PREPARED_SESSION_OPTIONS, SESSION_OPTIONS, type ConnectOptions, type Db } from './connect';
export { createMigrator, MIGRATIONS_DIR, MIGRATIONS_TABLE, type Migration, type MigrationContext, type MigratorOptions } from './migrator';
export { createDatabase, databaseUrl, dropDatabase } from './admin';
export type { Models } from './models';
export type { Fk, JsonObject, Nullable, NullableFk } from './model-kit';
export * from './values';

export {
  Account,
  AccountAddress,
  AccountSupportMailbox,
  AccountInvitation,
  AccountMembership,
  Contact,
  Department,
  PasswordResetToken,
  Physician,
  ProviderStaffRelationship,
  Technician,
  User,
} from './people';
export { FinancialAssistanceRecord, InsurancePlan, Order, Patient, PatientCorrection, PatientInvitation, type OrderDiagnosis } from './patients';
export { PatientResultLink, Sample, SampleFollowUp, SampleStatusEvent, StudyResponse, Test, TestResult } from './samples';
export { SampleDocument, StoredFile } from './documents';
export { Shipment, ShipmentItem } from './shipments';
export { AuditEvent, CaughtMail, Email, EmailCampaignRecipient, EmailCampaignRun, Job, Outbox, WebhookEvent } from './jobs';
export { PcrPlate, PcrPlateWell } from './pcr';
export { SmsOptOut, TextMessage } from './sms';
export { StoragePlate, StoragePlateWell } from './storage';
export { DnaExtraction } from './extractions';
export { CancerDiagnosis, SampleFollowUpLink } from './follow-ups';
export { PaymentEvent } from './payments';
export { QuestionnaireVersion, ResearchProject, ResearchProjectAccount } from './research';
export { AUTH_CACHE_CHANNEL } from './notify';
export { queryPrepared, toPositional } from './prepared';
export { patientSearchText } from './sql';
