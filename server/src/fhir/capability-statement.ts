/**
 * What the FHIR server says of itself: the R4 CapabilityStatement at /metadata (every resource,
 * interaction and search parameter server/src/fhir serves, and where tokens come from, as SMART's
 * `oauth-uris` extension) and SMART's discovery document (/.well-known/smart-configuration).
 */
import { FHIR_SCOPED_TYPES } from '@platform/domain';
import type { Config } from '../config';
import { FHIR_RESOURCES } from './capability';

/** The token endpoint, from the FHIR base (both live on the same origin). */
const tokenUrlOf = (fhirBase: string) => `${new URL(fhirBase).origin}/oauth2/token`;

/** When this statement was published: the build's start, so the statement is the same on every call. */
const PUBLISHED = new Date().toISOString();

export function capabilityStatement(fhirBase: string, config: Pick<Config, 'brand' | 'buildId' | 'lab'>) {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: PUBLISHED,
    publisher: config.lab.name,
    kind: 'instance',
    software: { name: `${config.brand} Platform`, version: config.buildId },
    implementation: { description: `${config.lab.name}: results of one account for its API clients`, url: fhirBase },
    fhirVersion: '4.0.1',
    format: ['json'],
    rest: [{
      mode: 'server',
      security: {
        cors: false,
        service: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' }] }],
        description: 'OAuth 2.0 client credentials (SMART Backend Services scopes system/<Type>.rs); a bearer token lives 5 minutes.',
        extension: [{
          url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
          extension: [{ url: 'token', valueUri: tokenUrlOf(fhirBase) }],
        }],
      },
      resource: [
        ...FHIR_RESOURCES.map((r) => ({
          type: r.type,
          interaction: r.interactions.map((code) => ({ code })),
          versioning: r.versioning,
          readHistory: false,
          ...(r.searchInclude.length ? { searchInclude: r.searchInclude } : {}),
          searchParam: r.searchParams.map((p) => ({ name: p.name, ...(p.definition ? { definition: p.definition } : {}), type: p.type, documentation: p.documentation })),
        })),
        // A released report's PDF (DiagnosticReport.presentedForm.url), read with a DiagnosticReport scope.
        { type: 'Binary', interaction: [{ code: 'read' }], versioning: 'no-version', readHistory: false },
      ],
    }],
  };
}

/** SMART App Launch 2.x discovery, for backend services: where the token comes from and what it grants. */
export function smartConfiguration(fhirBase: string) {
  return {
    token_endpoint: tokenUrlOf(fhirBase),
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: ['system/*.rs', ...FHIR_SCOPED_TYPES.map((t) => `system/${t}.rs`)],
    capabilities: ['client-confidential-symmetric'],
  };
}
