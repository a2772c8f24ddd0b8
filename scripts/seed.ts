/**
 * Demo data for `npm start` and the tests: a user of every role (see demo-users.ts), two clinic
 * accounts and a research account, patients, and samples in several statuses with their
 * timelines. Runs once: a database that already has the demo admin is left alone.
 */
import type { Db } from '@platform/db';
import {
  AccessStatus, AccountAddressKind, AccountRole, AccountType, Portal, PROSTOX_RESEARCH_QUESTIONNAIRE, ProviderTitle, RadiationTreatment, SampleStatus, SampleType, Specialty,
  TestName, TestOrigin, YesNoOther, attestationsFor, catalogueEntry, testsOrderableIn, type SampleStatus as Status,
} from '@platform/domain';
import { hashPassword } from '@platform/server/auth/passwords';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-users';

/** The path a sample walks to reach each demo status (from Order Placed). */
const PATH_TO: Record<string, Status[]> = {
  [SampleStatus.OrderPlaced]: [],
  [SampleStatus.PendingShipment]: [SampleStatus.PendingShipment],
  [SampleStatus.InTransit]: [SampleStatus.PendingShipment, SampleStatus.InTransit],
  [SampleStatus.InQueue]: [SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue],
  [SampleStatus.InTesting]: [SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue, SampleStatus.InTesting],
  [SampleStatus.Rejected]: [SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue, SampleStatus.Rejected],
};

export async function seedDemoData(db: Db): Promise<{ created: boolean }> {
  const m = db.models;
  if (await m.User.findOne({ where: { email: DEMO_USERS.admin.email } })) return { created: false };
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  await db.sequelize.transaction(async (transaction) => {
    const opts = { transaction };
    const users = {} as Record<keyof typeof DEMO_USERS, InstanceType<typeof m.User>>;
    for (const [key, u] of Object.entries(DEMO_USERS) as [keyof typeof DEMO_USERS, (typeof DEMO_USERS)[keyof typeof DEMO_USERS]][]) {
      users[key] = await m.User.create({ kind: u.kind, email: u.email, passwordHash, firstName: u.firstName, lastName: u.lastName, isActive: true }, opts);
    }

    // Riverside takes patient orders: patients ordering a test themselves may name it as their treating provider.
    const riverside = await m.Account.create({ name: 'Riverside Oncology', type: AccountType.General, eapPartner: true, international: false, clinicAccess: true, researchAccess: false, takesPatientOrders: true, isActive: true }, opts);
    const lakeside = await m.Account.create({ name: 'Lakeside Urology', type: AccountType.General, eapPartner: false, international: true, clinicAccess: true, researchAccess: false, isActive: true }, opts);
    const northwind = await m.Account.create({ name: 'Northwind Research', type: AccountType.ProstoxResearchPartner, eapPartner: false, international: false, clinicAccess: false, researchAccess: true, isActive: true }, opts);
    await m.Department.create({ accountId: riverside.id, name: 'Radiation Oncology' }, opts);
    // Where the clinics' kits leave from: the sender of their carrier labels (docs/shipping.md).
    await m.AccountAddress.create({ accountId: riverside.id, kind: AccountAddressKind.Shipping, addressLine1: '250 Riverside Drive', addressLine2: 'Suite 300', city: 'Sacramento', state: 'CA', postalCode: '95814', country: 'US' }, opts);
    await m.AccountAddress.create({ accountId: lakeside.id, kind: AccountAddressKind.Shipping, addressLine1: '40 Lakeshore Boulevard', addressLine2: null, city: 'Toronto', state: 'ON', postalCode: 'M5V 2T6', country: 'CA' }, opts);

    const contactOf = (u: InstanceType<typeof m.User>, title: ProviderTitle, specialty: Specialty | null) =>
      m.Contact.create({ userId: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email, title, specialty, accessStatus: AccessStatus.Approved }, opts);
    const physician = await contactOf(users.physician, ProviderTitle.Physician, Specialty.RadiationOncology);
    const staff = await contactOf(users.staff, ProviderTitle.Nurse, null);
    const superAdmin = await contactOf(users.superAdmin, ProviderTitle.Other, null);
    const researcher = await contactOf(users.researcher, ProviderTitle.Physician, Specialty.MedicalOncology);
    await m.Contact.create({ firstName: 'Peter', lastName: 'Pending', email: 'pending@demo.test', title: ProviderTitle.Physician, specialty: Specialty.Urology, accessStatus: AccessStatus.Pending, requestedAccountName: 'Hilltop Urology' }, opts);

    const member = (accountId: number, contactId: number, role: AccountRole) => m.AccountMembership.create({ accountId, contactId, role, isActive: true }, opts);
    await member(riverside.id, physician.id, AccountRole.Physician);
    await member(lakeside.id, physician.id, AccountRole.Physician);
    await member(riverside.id, staff.id, AccountRole.SupportStaff);
    await member(riverside.id, superAdmin.id, AccountRole.SuperAdmin);
    await member(lakeside.id, superAdmin.id, AccountRole.SuperAdmin);
    await member(northwind.id, researcher.id, AccountRole.Physician);
    await m.ProviderStaffRelationship.create({ accountId: riverside.id, physicianContactId: physician.id, staffContactId: staff.id }, opts);

    const doctor = (accountId: number, c: { id: number; firstName: string; lastName: string }, npi: string, specialty: Specialty) =>
      m.Physician.create({ accountId, contactId: c.id, firstName: c.firstName, lastName: c.lastName, npi, specialty }, opts);
    const grantRiverside = await doctor(riverside.id, physician, '1234567893', Specialty.RadiationOncology);
    const grantLakeside = await doctor(lakeside.id, physician, '1234567893', Specialty.RadiationOncology);
    const reyes = await m.Physician.create({ accountId: riverside.id, contactId: null, firstName: 'Omar', lastName: 'Reyes', npi: '1987654321', specialty: Specialty.Urology }, opts);
    const searchDoctor = await doctor(northwind.id, researcher, '1477777777', Specialty.MedicalOncology);

    for (const u of [users.lab1, users.lab2]) await m.Technician.create({ userId: u.id, firstName: u.firstName, lastName: u.lastName, email: u.email }, opts);
    for (const name of ['Medicare', 'Blue Cross Blue Shield', 'Aetna', 'UnitedHealthcare']) await m.InsurancePlan.create({ name, payerCode: name.toUpperCase().replace(/\W+/g, '_').slice(0, 20), isActive: true }, opts);

    let serial = 0;
    type DemoPerson = { first: string; last: string; dob: string } | { studyId: string; projectId: number };
    const sample = async (accountId: number, physicianId: number, patient: DemoPerson, test: TestName, status: Status, portal: Portal) => {
      serial += 1;
      const p = 'studyId' in patient
        ? await m.Patient.create({ accountId, studyId: patient.studyId, sex: 'F' }, opts)
        : await m.Patient.create({ accountId, firstName: patient.first, lastName: patient.last, dateOfBirth: patient.dob, sex: 'M', email: `${patient.first.toLowerCase()}.${patient.last.toLowerCase()}@patients.demo.test` }, opts);
      const attestations = Object.fromEntries(attestationsFor(portal).map((a) => [a.key, true]));
      const order = await m.Order.create({ orderNumber: `RF_${String(100000000 + serial)}`, accountId, patientId: p.id, physicianId, origin: TestOrigin.ProviderOrdered, portal, createdByUserId: users.physician.id, attestations, researchProjectId: 'studyId' in patient ? patient.projectId : null }, opts);
      const s = await m.Sample.create({ barcode: `41${String(serial).padStart(12, '0')}`, sampleType: SampleType.BuccalSwab, status: SampleStatus.OrderPlaced, accountId, patientId: p.id, orderId: order.id }, opts);
      await m.Test.create({ orderId: order.id, sampleId: s.id, name: test, parentType: catalogueEntry(test).parentType }, opts);
      await m.SampleStatusEvent.create({ sampleId: s.id, fromStatus: null, toStatus: SampleStatus.OrderPlaced, actorUserId: users.physician.id, actorKind: 'provider' }, opts);
      let from: Status = SampleStatus.OrderPlaced;
      for (const to of PATH_TO[status]) {
        const lab = [SampleStatus.InQueue, SampleStatus.InTesting, SampleStatus.Rejected].includes(to as never);
        await m.SampleStatusEvent.create({ sampleId: s.id, fromStatus: from, toStatus: to, reason: to === SampleStatus.Rejected ? 'Rejected - quantity not sufficient' : null, actorUserId: lab ? users.lab1.id : users.physician.id, actorKind: lab ? 'lab' : 'provider' }, opts);
        from = to;
      }
      await s.update({ status, rejectionReason: status === SampleStatus.Rejected ? 'Rejected - quantity not sufficient' : null, receivedAt: PATH_TO[status].includes(SampleStatus.InQueue) ? new Date() : null }, opts);
    };
    await sample(riverside.id, grantRiverside.id, { first: 'John', last: 'Carter', dob: '1956-03-14' }, TestName.ProstoxUltra, SampleStatus.OrderPlaced, Portal.Clinical);
    await sample(riverside.id, grantRiverside.id, { first: 'Robert', last: 'Miles', dob: '1949-11-02' }, TestName.ProstoxCfrt, SampleStatus.PendingShipment, Portal.Clinical);
    await sample(riverside.id, reyes.id, { first: 'David', last: 'Osei', dob: '1961-07-28' }, TestName.Kras, SampleStatus.InTransit, Portal.Clinical);
    await sample(riverside.id, grantRiverside.id, { first: 'Thomas', last: 'Berg', dob: '1953-01-09' }, TestName.ProstoxUltra, SampleStatus.InQueue, Portal.Clinical);
    await sample(riverside.id, grantRiverside.id, { first: 'Henry', last: 'Walsh', dob: '1958-05-21' }, TestName.Previotox, SampleStatus.InTesting, Portal.Clinical);
    await sample(riverside.id, reyes.id, { first: 'Arthur', last: 'Lindqvist', dob: '1947-09-30' }, TestName.ProstoxCfrt, SampleStatus.Rejected, Portal.Clinical);
    await sample(lakeside.id, grantLakeside.id, { first: 'Marco', last: 'Bellini', dob: '1960-12-12' }, TestName.ProstoxUltra, SampleStatus.PendingShipment, Portal.Clinical);

    // Northwind's research project: two participants known by study id, one study response complete, one still incomplete.
    const study = await m.ResearchProject.create({
      name: 'Radiation Toxicity Panels Study', protocol: '/docs/research-protocol.pdf', consentDocument: '/docs/research-consent.pdf', tests: testsOrderableIn(Portal.Research),
    }, opts);
    await m.ResearchProjectAccount.create({ researchProjectId: study.id, accountId: northwind.id }, opts);
    const questionnaire = await m.QuestionnaireVersion.create({ researchProjectId: study.id, version: 1, definition: { ...PROSTOX_RESEARCH_QUESTIONNAIRE }, publishedAt: new Date() }, opts);
    const participantOf = async (studyId: string) => (await m.Patient.findOne({ where: { accountId: northwind.id, studyId }, ...opts }))!;
    await sample(northwind.id, searchDoctor.id, { studyId: 'NW-0001', projectId: study.id }, TestName.BreastTox, SampleStatus.InQueue, Portal.Research);
    await sample(northwind.id, searchDoctor.id, { studyId: 'KRAS-WH-0042', projectId: study.id }, TestName.HeadAndNeck, SampleStatus.InTransit, Portal.Research);
    const complete = {
      radiationTreatment: RadiationTreatment.Photons, doseGy: 50, fractions: 25, treatmentStartDate: '2026-03-02', treatmentEndDate: '2026-04-03',
      acuteToxicity: YesNoOther.No, lateToxicity: YesNoOther.No,
    };
    await m.StudyResponse.create({ researchProjectId: study.id, questionnaireVersionId: questionnaire.id, patientId: (await participantOf('NW-0001')).id, answers: complete, complete: true, updatedByUserId: users.researcher.id }, opts);
    await m.StudyResponse.create({ researchProjectId: study.id, questionnaireVersionId: questionnaire.id, patientId: (await participantOf('KRAS-WH-0042')).id, answers: { radiationTreatment: RadiationTreatment.Protons }, complete: false, updatedByUserId: users.researcher.id }, opts);
  });
  return { created: true };
}
