/**
 * Rows the clinic tests create for themselves: a clinic account of their own with its own
 * provider user and physicians (so counts in it are exact), patients and orders through the API,
 * and PDF text through pdftotext.
 */
import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import { hashPassword, type AppContext } from '@platform/api';
import { AccessStatus, AccountRole, AccountType, ORDER_ATTESTATIONS, ProviderTitle, SampleType, Specialty, TestName } from '@platform/domain';
import { newSession, type Session } from '../support/http';

export const TEST_PASSWORD = 'clinic-test-password-1';

export interface TestClinic {
  accountId: number;
  name: string;
  userId: number;
  email: string;
  physicianIds: number[];
  session: Session;
  /** '/api/provider-clinic/<accountId>/' + path */
  api(path: string): string;
}

let clinicSerial = 0;

/** A clinic account with clinic access, one provider user (Physician) and two physicians; signed in. */
export async function createClinic(ctx: AppContext, app: Express, label = 'Clinic'): Promise<TestClinic> {
  clinicSerial += 1;
  const m = ctx.db.models;
  const tag = `${randomBytes(3).toString('hex')}${clinicSerial}`;
  const email = `clinic-${tag}@clinic-tests.test`;
  const name = `${label} ${tag}`;
  const passwordHash = await hashPassword(TEST_PASSWORD);
  const { account, user, physicianIds } = await ctx.db.sequelize.transaction(async (transaction) => {
    const opts = { transaction };
    const account = await m.Account.create({ name, type: AccountType.General, clinicAccess: true, researchAccess: false, isActive: true }, opts);
    const user = await m.User.create({ kind: 'provider', email, passwordHash, firstName: 'Casey', lastName: `Clinic${clinicSerial}`, isActive: true }, opts);
    const contact = await m.Contact.create(
      { userId: user.id, firstName: user.firstName, lastName: user.lastName, email, title: ProviderTitle.Physician, specialty: Specialty.Urology, accessStatus: AccessStatus.Approved },
      opts,
    );
    await m.AccountMembership.create({ accountId: account.id, contactId: contact.id, role: AccountRole.Physician, isActive: true }, opts);
    const own = await m.Physician.create({ accountId: account.id, contactId: contact.id, firstName: user.firstName, lastName: user.lastName, npi: '1669999990', specialty: Specialty.Urology }, opts);
    const other = await m.Physician.create({ accountId: account.id, contactId: null, firstName: 'Nadia', lastName: 'Ortiz', npi: '1558888881', specialty: Specialty.RadiationOncology }, opts);
    return { account, user, physicianIds: [own.id, other.id] };
  });
  const session = await newSession(app, `10.77.${clinicSerial % 250}.1`);
  await session.post('/api/auth/login', { email, password: TEST_PASSWORD, portal: 'provider' }).expect(200);
  await session.refreshCsrf();
  return { accountId: account.id, name, userId: user.id, email, physicianIds, session, api: (p) => `/api/provider-clinic/${account.id}/${p}` };
}

export const ALL_ATTESTED = Object.fromEntries(ORDER_ATTESTATIONS.map((a) => [a.key, true])) as Record<(typeof ORDER_ATTESTATIONS)[number]['key'], boolean>;

export interface NewPatient {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: string;
}

let patientSerial = 0;
/** A patient with a name no other test uses. */
export function uniquePatient(overrides: Partial<NewPatient> = {}): NewPatient {
  patientSerial += 1;
  const letters = randomBytes(4).toString('hex').replace(/\d/g, (d) => 'abcdefghij'[Number(d)]);
  return { firstName: `Pat${letters}`, lastName: `Tester${letters}${'abcdefghijklmnop'[patientSerial % 16]}`, dateOfBirth: '1961-04-17', sex: 'M', ...overrides };
}

export async function addPatient(clinic: TestClinic, patient: NewPatient = uniquePatient()): Promise<{ id: number } & NewPatient> {
  const res = await clinic.session.post(clinic.api('patient'), patient).expect(201);
  return { ...patient, id: res.body.id };
}

export interface PlacedOrder {
  orderId: number;
  orderNumber: string;
  sampleId: number;
  barcode: string;
  patientId: number;
}

export async function placeOrder(
  clinic: TestClinic,
  patientId: number,
  overrides: Partial<{ tests: string[]; physicianId: number; sampleType: string }> = {},
): Promise<PlacedOrder> {
  const res = await clinic.session
    .post(clinic.api('order'), {
      patientId,
      tests: [TestName.ProstoxUltra],
      physicianId: clinic.physicianIds[0],
      sampleType: SampleType.BuccalSwab,
      attestations: ALL_ATTESTED,
      ...overrides,
    })
    .expect(201);
  return { orderId: res.body.order.id, orderNumber: res.body.order.orderNumber, sampleId: res.body.sample.id, barcode: res.body.sample.barcode, patientId };
}

export { pdfText, binaryBody as binaryParser } from '../support/pdf';

/** Counts of the rows an order or a shipment writes: to check that a refused request wrote nothing. */
export async function rowCounts(ctx: AppContext): Promise<Record<string, number>> {
  const m = ctx.db.models;
  const [orders, samples, tests, events, outbox, shipments, items, patients] = await Promise.all([
    m.Order.count(), m.Sample.count(), m.Test.count(), m.SampleStatusEvent.count(), m.Outbox.count(), m.Shipment.count(), m.ShipmentItem.count(), m.Patient.count(),
  ]);
  return { orders, samples, tests, events, outbox, shipments, items, patients };
}

export async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
