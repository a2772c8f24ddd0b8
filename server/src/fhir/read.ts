/**
 * Read and vread of one resource of the account, and the lab report PDF a DiagnosticReport
 * presents (Binary). Null when the id does not exist OR belongs to another account, a research
 * participant or an unreleased result: the caller answers 404 either way, never saying which.
 * Every read of patient data is audited (action `fhir.read`; the Binary as `report.downloaded`,
 * as the portal's download is), ids only.
 */
import type { Resource } from '@medplum/fhirtypes';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type Caller } from '../audit';
import {
  buildAccountOrganization, buildDiagnosticReport, buildLabOrganization, buildObservation, buildPatient, buildPractitioner, buildServiceRequest, buildSpecimen,
  LAB_ORGANIZATION_ID, REPORT_BINARY_ID, type BuildContext,
} from './builders';
import { isFhirResourceType, type FhirResourceType } from './capability';
import { accountRow, patientOfAccount, physicianOfAccount, reportPdfOfAccount, resultOfAccount, sampleOfAccount, testOfAccount } from './queries';
import { numericId } from './search-params';
import { LAB_CODE_SYSTEM_IDS, labCodeSystem } from './systems';

export type FhirCtx = Pick<ServerContext, 'db' | 'config'>;

/** Whose data: the API client's account, and who asks (for the audit). */
export interface FhirScope {
  accountId: number;
  caller: Caller;
}

export const buildContextOf = (ctx: FhirCtx): BuildContext => ({ publicUrl: ctx.config.publicUrl, lab: ctx.config.lab });

/** The audit's entity of a resource type's rows. */
export const AUDIT_ENTITY: Partial<Record<FhirResourceType, 'patient' | 'sample' | 'test'>> = {
  Patient: 'patient', Specimen: 'sample', ServiceRequest: 'test', DiagnosticReport: 'test', Observation: 'test',
};

async function auditRead(ctx: FhirCtx, scope: FhirScope, type: FhirResourceType, id: string, versionId?: string): Promise<void> {
  const entityKind = AUDIT_ENTITY[type];
  if (!entityKind) return;
  await recordAudit(ctx.db, {
    ...auditActor(scope.caller), action: 'fhir.read', entityKind, entityId: id,
    details: { accountId: scope.accountId, resource: `${type}/${id}`, ...(versionId ? { versionId } : {}) },
  });
}

/**
 * GET [type]/[id]: the resource, or null. An unknown type answers null too (the api checks the
 * type against FHIR_RESOURCE_TYPES first and answers its own error).
 */
export async function readFhirResource(ctx: FhirCtx, scope: FhirScope, type: string, id: string): Promise<Resource | null> {
  if (!isFhirResourceType(type)) return null;
  const b = buildContextOf(ctx);
  if (type === 'CodeSystem') {
    const key = LAB_CODE_SYSTEM_IDS[id];
    return key ? labCodeSystem(key, b.publicUrl, b.lab.name) : null;
  }
  if (type === 'Organization') {
    if (id === LAB_ORGANIZATION_ID) return buildLabOrganization(b);
    if (numericId(id) !== scope.accountId) return null;
    const account = await accountRow(ctx, scope.accountId);
    return account ? buildAccountOrganization(account, b) : null;
  }
  const n = numericId(id);
  if (n === null) return null;
  const resource = await readById(ctx, scope.accountId, type, n, null, b);
  if (resource) await auditRead(ctx, scope, type, String(n));
  return resource;
}

async function readById(ctx: FhirCtx, accountId: number, type: FhirResourceType, id: number, version: number | null, b: BuildContext): Promise<Resource | null> {
  switch (type) {
    case 'Patient': {
      const row = await patientOfAccount(ctx, accountId, id);
      return row && buildPatient(row, b);
    }
    case 'Practitioner': {
      const row = await physicianOfAccount(ctx, accountId, id);
      return row && buildPractitioner(row, b);
    }
    case 'Specimen': {
      const row = await sampleOfAccount(ctx, accountId, id);
      return row && buildSpecimen(row, b);
    }
    case 'ServiceRequest': {
      const row = await testOfAccount(ctx, accountId, id);
      return row && buildServiceRequest(row, b);
    }
    case 'DiagnosticReport':
    case 'Observation': {
      const row = await resultOfAccount(ctx, accountId, id, version);
      if (!row) return null;
      return type === 'DiagnosticReport' ? buildDiagnosticReport(row, b) : buildObservation(row, b);
    }
    default:
      return null;
  }
}

/**
 * GET [type]/[id]/_history/[versionId]: a version that was released (DiagnosticReport and
 * Observation keep every released version: versionId is the result's version number); null
 * otherwise. The other types keep no history and carry no versionId: a vread of them is null
 * (their description in capability.ts says `no-version` and lists no vread).
 */
export async function vreadFhirResource(ctx: FhirCtx, scope: FhirScope, type: string, id: string, versionId: string): Promise<Resource | null> {
  if (type !== 'DiagnosticReport' && type !== 'Observation') return null;
  const n = numericId(id);
  const v = numericId(versionId);
  if (n === null || v === null || v < 1 || v > 2_147_483_647) return null;
  const resource = await readById(ctx, scope.accountId, type, n, v, buildContextOf(ctx));
  if (resource) await auditRead(ctx, scope, type, String(n), String(v));
  return resource;
}

/** The lab report PDF of a released result version: what `presentedForm.url` (Binary/lab-report-{resultId}) names. */
export interface FhirBinary {
  id: string;
  contentType: string;
  content: Buffer;
}

/**
 * GET Binary/[id]: the PDF of a DiagnosticReport version, or null (unknown, another account's, or
 * not rendered yet: the worker renders it a moment after the release). Audited as the portal's
 * report download is.
 */
export async function readFhirBinary(ctx: FhirCtx, scope: FhirScope, id: string): Promise<FhirBinary | null> {
  const m = REPORT_BINARY_ID.exec(id);
  if (!m) return null;
  const pdf = await reportPdfOfAccount(ctx, scope.accountId, Number(m[1]));
  if (!pdf) return null;
  await recordAudit(ctx.db, {
    ...auditActor(scope.caller), action: 'report.downloaded', entityKind: 'sample', entityId: pdf.sample_id,
    details: { accountId: scope.accountId, documentId: pdf.document_id, version: pdf.document_version, corrected: pdf.corrected, resultId: pdf.result_id, via: 'fhir' },
  });
  return { id, contentType: pdf.content_type, content: pdf.content };
}
