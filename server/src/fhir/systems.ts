/**
 * The URIs the FHIR resources name: code systems (from domain's code table), identifier systems of
 * the lab, and the codings and CodeSystem resources built from the table. The lab's systems live
 * under the public URL (config.publicUrl), never under the address a request came through.
 */
import type { CodeableConcept, CodeSystem, Coding } from '@medplum/fhirtypes';
import {
  CLIA_OID, CodeSystemKey, codeSystemUri, LAB_CODE_SYSTEMS, labCodeSystemConcepts, labCodeSystemUrl, TEST_METHODS, isTestName,
  type CodeEntry, type LabCodeSystemKey,
} from '@platform/domain';

/** Identifier systems of the lab: the kit barcode of a sample and the order number. */
export function identifierSystems(publicUrl: string) {
  const base = `${publicUrl.replace(/\/+$/, '')}/fhir/R4/identifiers`;
  return { barcode: `${base}/sample-barcode`, orderNumber: `${base}/order-number` };
}

export const NPI_SYSTEM = 'http://hl7.org/fhir/sid/us-npi';
export const CLIA_SYSTEM = `urn:oid:${CLIA_OID}`;
export const V2_0203 = 'http://terminology.hl7.org/CodeSystem/v2-0203';
export const V2_0074 = 'http://terminology.hl7.org/CodeSystem/v2-0074';
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
export const DATA_ABSENT_REASON = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';
export const BCP47 = 'urn:ietf:bcp:47';

export function coding(c: CodeEntry, publicUrl: string): Coding {
  return { system: codeSystemUri(c.system, publicUrl), code: c.code, display: c.display };
}

export function concept(codes: CodeEntry[], publicUrl: string, text?: string): CodeableConcept {
  return { coding: codes.map((c) => coding(c, publicUrl)), ...(text ? { text } : {}) };
}

/** The system key of a URI the table uses, or undefined for a system it does not know. */
export function systemKeyOf(uri: string, publicUrl: string): CodeSystemKey | undefined {
  return (Object.values(CodeSystemKey) as CodeSystemKey[]).find((k) => codeSystemUri(k, publicUrl) === uri);
}

/** The id of each of the lab's CodeSystem resources. */
export const LAB_CODE_SYSTEM_IDS = Object.fromEntries(
  (Object.keys(LAB_CODE_SYSTEMS) as LabCodeSystemKey[]).map((k) => [LAB_CODE_SYSTEMS[k].id, k]),
) as Record<string, LabCodeSystemKey>;

/** One of the lab's code systems as a CodeSystem resource (complete, every concept with its display). */
export function labCodeSystem(key: LabCodeSystemKey, publicUrl: string, publisher: string): CodeSystem {
  const meta = LAB_CODE_SYSTEMS[key];
  const concepts = labCodeSystemConcepts(key);
  return {
    resourceType: 'CodeSystem',
    id: meta.id,
    url: labCodeSystemUrl(publicUrl, key),
    name: meta.name,
    title: meta.title,
    status: 'active',
    experimental: false,
    publisher,
    description: meta.description,
    caseSensitive: true,
    content: 'complete',
    count: concepts.length,
    concept: concepts.map((c) => {
      const definition = key === CodeSystemKey.LabTests && isTestName(c.display) ? TEST_METHODS[c.display].method : undefined;
      return { code: c.code, display: c.display, ...(definition ? { definition } : {}) };
    }),
  };
}
