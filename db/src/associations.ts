/** Every association between the models, in one place. Aliases (`as`) are the NonAttribute fields of the classes. */
import type { Models } from './models';
import { associatePcr } from './pcr';
import { associateStorage } from './storage';
import { associateExtractions } from './extractions';
import { associateFollowUps } from './follow-ups';
import { associatePayments } from './payments';
import { associateResearch } from './research';

export function associate(m: Models): void {
  // People and accounts
  m.User.hasOne(m.Contact, { foreignKey: 'userId', as: 'contact' });
  m.User.hasOne(m.Technician, { foreignKey: 'userId', as: 'technician' });
  m.Contact.belongsTo(m.User, { foreignKey: 'userId', as: 'user' });
  m.Contact.belongsTo(m.User, { foreignKey: 'decidedByUserId', as: 'decidedBy' });
  m.Technician.belongsTo(m.User, { foreignKey: 'userId', as: 'user' });
  m.PasswordResetToken.belongsTo(m.User, { foreignKey: 'userId', as: 'user' });

  m.Account.hasMany(m.AccountAddress, { foreignKey: 'accountId', as: 'addresses' });
  m.AccountAddress.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.Account.hasMany(m.Department, { foreignKey: 'accountId', as: 'departments' });
  m.Department.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });

  m.Account.hasMany(m.AccountMembership, { foreignKey: 'accountId', as: 'memberships' });
  m.Contact.hasMany(m.AccountMembership, { foreignKey: 'contactId', as: 'memberships' });
  m.AccountMembership.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.AccountMembership.belongsTo(m.Contact, { foreignKey: 'contactId', as: 'contact' });
  m.AccountInvitation.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.AccountInvitation.belongsTo(m.User, { foreignKey: 'invitedByUserId', as: 'invitedBy' });
  m.Account.belongsToMany(m.Contact, { through: m.AccountMembership, foreignKey: 'accountId', otherKey: 'contactId', as: 'contacts' });
  m.Contact.belongsToMany(m.Account, { through: m.AccountMembership, foreignKey: 'contactId', otherKey: 'accountId', as: 'accounts' });

  m.Account.hasMany(m.Physician, { foreignKey: 'accountId', as: 'physicians' });
  m.Physician.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.Physician.belongsTo(m.Contact, { foreignKey: 'contactId', as: 'contact' });

  m.ProviderStaffRelationship.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.ProviderStaffRelationship.belongsTo(m.Contact, { foreignKey: 'physicianContactId', as: 'physician' });
  m.ProviderStaffRelationship.belongsTo(m.Contact, { foreignKey: 'staffContactId', as: 'staff' });

  // Patients and orders
  m.Account.hasMany(m.Patient, { foreignKey: 'accountId', as: 'patients' });
  m.Patient.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.Patient.hasMany(m.PatientInvitation, { foreignKey: 'patientId', as: 'invitations' });
  m.PatientInvitation.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.PatientInvitation.belongsTo(m.Patient, { foreignKey: 'patientId', as: 'patient' });
  m.PatientInvitation.belongsTo(m.User, { foreignKey: 'createdByUserId', as: 'createdBy' });
  m.Patient.hasMany(m.FinancialAssistanceRecord, { foreignKey: 'patientId', as: 'financialAssistanceRecords' });
  m.FinancialAssistanceRecord.belongsTo(m.Patient, { foreignKey: 'patientId', as: 'patient' });
  m.FinancialAssistanceRecord.belongsTo(m.User, { foreignKey: 'decidedByUserId', as: 'decidedBy' });
  m.FinancialAssistanceRecord.belongsTo(m.User, { foreignKey: 'createdByUserId', as: 'createdBy' });

  m.Account.hasMany(m.Order, { foreignKey: 'accountId', as: 'orders' });
  m.Patient.hasMany(m.Order, { foreignKey: 'patientId', as: 'orders' });
  m.Order.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.Order.belongsTo(m.Patient, { foreignKey: 'patientId', as: 'patient' });
  m.Order.belongsTo(m.Physician, { foreignKey: 'physicianId', as: 'physician' });
  m.Order.belongsTo(m.InsurancePlan, { foreignKey: 'insurancePlanId', as: 'insurancePlan' });
  m.Order.belongsTo(m.User, { foreignKey: 'createdByUserId', as: 'createdBy' });

  // Samples, tests, results
  m.Account.hasMany(m.Sample, { foreignKey: 'accountId', as: 'samples' });
  m.Patient.hasMany(m.Sample, { foreignKey: 'patientId', as: 'samples' });
  m.Order.hasMany(m.Sample, { foreignKey: 'orderId', as: 'samples' });
  m.Sample.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.Sample.belongsTo(m.Patient, { foreignKey: 'patientId', as: 'patient' });
  m.Sample.belongsTo(m.Order, { foreignKey: 'orderId', as: 'order' });
  m.Sample.belongsTo(m.User, { foreignKey: 'receivedByUserId', as: 'receivedBy' });

  m.Sample.hasMany(m.SampleStatusEvent, { foreignKey: 'sampleId', as: 'statusEvents' });
  m.SampleStatusEvent.belongsTo(m.Sample, { foreignKey: 'sampleId', as: 'sample' });
  m.SampleStatusEvent.belongsTo(m.User, { foreignKey: 'actorUserId', as: 'actor' });

  m.Order.hasMany(m.Test, { foreignKey: 'orderId', as: 'tests' });
  m.Sample.hasMany(m.Test, { foreignKey: 'sampleId', as: 'tests' });
  m.Test.belongsTo(m.Order, { foreignKey: 'orderId', as: 'order' });
  m.Test.belongsTo(m.Sample, { foreignKey: 'sampleId', as: 'sample' });

  m.Test.hasMany(m.TestResult, { foreignKey: 'testId', as: 'results' });
  m.TestResult.belongsTo(m.Test, { foreignKey: 'testId', as: 'test' });
  m.TestResult.belongsTo(m.User, { foreignKey: 'enteredByUserId', as: 'enteredBy' });
  m.TestResult.belongsTo(m.User, { foreignKey: 'reviewedByUserId', as: 'reviewedBy' });
  m.TestResult.belongsTo(m.Job, { foreignKey: 'importJobId', as: 'importJob' });

  m.Sample.hasMany(m.SampleFollowUp, { foreignKey: 'sampleId', as: 'followUps' });
  m.SampleFollowUp.belongsTo(m.Sample, { foreignKey: 'sampleId', as: 'sample' });

  m.Sample.hasMany(m.PatientResultLink, { foreignKey: 'sampleId', as: 'resultLinks' });
  m.PatientResultLink.belongsTo(m.Sample, { foreignKey: 'sampleId', as: 'sample' });
  m.PatientResultLink.belongsTo(m.User, { foreignKey: 'createdByUserId', as: 'createdBy' });

  // Files and documents
  m.StoredFile.belongsTo(m.User, { foreignKey: 'uploadedByUserId', as: 'uploadedBy' });
  m.StoredFile.hasMany(m.SampleDocument, { foreignKey: 'fileId', as: 'documents' });
  m.SampleDocument.belongsTo(m.StoredFile, { foreignKey: 'fileId', as: 'file' });
  m.Sample.hasMany(m.SampleDocument, { foreignKey: 'sampleId', as: 'documents' });
  m.SampleDocument.belongsTo(m.Sample, { foreignKey: 'sampleId', as: 'sample' });

  // Shipments
  m.Account.hasMany(m.Shipment, { foreignKey: 'accountId', as: 'shipments' });
  m.Shipment.belongsTo(m.Account, { foreignKey: 'accountId', as: 'account' });
  m.Shipment.belongsTo(m.User, { foreignKey: 'createdByUserId', as: 'createdBy' });
  m.Shipment.hasMany(m.ShipmentItem, { foreignKey: 'shipmentId', as: 'items' });
  m.ShipmentItem.belongsTo(m.Shipment, { foreignKey: 'shipmentId', as: 'shipment' });
  m.ShipmentItem.belongsTo(m.Sample, { foreignKey: 'sampleId', as: 'sample' });
  m.ShipmentItem.belongsTo(m.SampleDocument, { foreignKey: 'documentId', as: 'document' });
  m.Sample.hasMany(m.ShipmentItem, { foreignKey: 'sampleId', as: 'shipmentItems' });

  // Jobs
  m.Job.belongsTo(m.User, { foreignKey: 'createdByUserId', as: 'createdBy' });
  m.EmailCampaignRun.hasMany(m.EmailCampaignRecipient, { foreignKey: 'campaignId', as: 'recipients' });
  m.EmailCampaignRecipient.belongsTo(m.Email, { foreignKey: 'emailId', as: 'email' });

  associatePcr(m);
  associateStorage(m);
  associateExtractions(m);
  associateFollowUps(m);
  associatePayments(m);
  associateResearch(m);
}
