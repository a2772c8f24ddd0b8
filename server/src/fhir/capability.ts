/**
 * What the FHIR capability answers, as data: per resource type its interactions, whether it keeps
 * versions, its search parameters (name, FHIR type, the official definition, what it matches
 * here) and its _include values. The api prints this into the CapabilityStatement; the search
 * refuses any parameter not listed here.
 */

export type FhirResourceType =
  | 'Patient' | 'Practitioner' | 'Organization' | 'ServiceRequest' | 'Specimen' | 'DiagnosticReport' | 'Observation' | 'CodeSystem';

export interface FhirSearchParamDescription {
  name: string;
  type: 'token' | 'reference' | 'date' | 'string' | 'uri' | 'number';
  /** The canonical SearchParameter of the FHIR R4 specification. */
  definition?: string;
  documentation: string;
}

export interface FhirResourceDescription {
  type: FhirResourceType;
  interactions: ('read' | 'vread' | 'search-type')[];
  /** `versioned`: meta.versionId is set and earlier versions can be read (vread); `no-version` otherwise. */
  versioning: 'versioned' | 'no-version';
  /** Reading it is reading patient data (audited). */
  patientData: boolean;
  searchParams: FhirSearchParamDescription[];
  searchInclude: string[];
}

const sp = (base: string, name: string, type: FhirSearchParamDescription['type'], documentation: string, definitionName = name): FhirSearchParamDescription => ({
  name, type, documentation,
  definition: `http://hl7.org/fhir/SearchParameter/${base}-${definitionName.replace(/^_/, '')}`,
});
const common = (): FhirSearchParamDescription[] => [
  { name: '_id', type: 'token', definition: 'http://hl7.org/fhir/SearchParameter/Resource-id', documentation: 'The resource id (comma-separated for several)' },
  { name: '_count', type: 'number', documentation: 'Entries per page (default 20, at most 100; 0 answers the total only)' },
  { name: '_cursor', type: 'string', documentation: 'Where a page starts: set by the Bundle\'s next link, opaque' },
];
const lastUpdated = (what: string): FhirSearchParamDescription => ({
  name: '_lastUpdated', type: 'date', definition: 'http://hl7.org/fhir/SearchParameter/Resource-lastUpdated',
  documentation: `meta.lastUpdated (${what}); prefixes eq, gt, ge, lt, le`,
});
const patientRefs = (base: string): FhirSearchParamDescription[] => [
  sp(base === 'Specimen' ? 'Specimen' : 'clinical', 'patient', 'reference', 'The patient (Patient/{id} or {id})'),
  sp(base, 'subject', 'reference', 'The patient (Patient/{id})'),
];

export const FHIR_RESOURCES: readonly FhirResourceDescription[] = [
  {
    type: 'Patient', interactions: ['read', 'search-type'], versioning: 'no-version', patientData: true, searchInclude: [],
    searchParams: [
      ...common(),
      sp('Patient', 'identifier', 'token', 'The medical record number the clinic gave'),
      sp('Patient', 'name', 'string', 'Given or family name starts with (case-insensitive)', 'name'),
      sp('individual', 'family', 'string', 'Family name starts with (case-insensitive)'),
      sp('individual', 'given', 'string', 'Given name starts with (case-insensitive)'),
      sp('individual', 'birthdate', 'date', 'Date of birth; prefixes eq, gt, ge, lt, le'),
      sp('individual', 'gender', 'token', 'male | female | other | unknown'),
      lastUpdated('when the patient\'s record last changed'),
    ],
  },
  {
    type: 'Practitioner', interactions: ['read', 'search-type'], versioning: 'no-version', patientData: false, searchInclude: [],
    searchParams: [
      ...common(),
      sp('Practitioner', 'identifier', 'token', 'The NPI (http://hl7.org/fhir/sid/us-npi|{npi})'),
      sp('Practitioner', 'name', 'string', 'Given or family name starts with (case-insensitive)'),
    ],
  },
  {
    type: 'Organization', interactions: ['read', 'search-type'], versioning: 'no-version', patientData: false, searchInclude: [],
    searchParams: [...common()],
  },
  {
    type: 'ServiceRequest', interactions: ['read', 'search-type'], versioning: 'no-version', patientData: true, searchInclude: [],
    searchParams: [
      ...common(),
      ...patientRefs('ServiceRequest'),
      sp('clinical', 'identifier', 'token', 'The order number or the sample barcode'),
      sp('ServiceRequest', 'status', 'token', 'draft | active | revoked | completed'),
      sp('clinical', 'code', 'token', 'The test: LOINC or the lab\'s code ([system|]code)'),
      sp('ServiceRequest', 'authored', 'date', 'When the order was placed; prefixes eq, gt, ge, lt, le'),
      sp('ServiceRequest', 'requester', 'reference', 'The ordering physician (Practitioner/{id})'),
      sp('ServiceRequest', 'specimen', 'reference', 'The sample (Specimen/{id})'),
      lastUpdated('the latest change of the test, its sample or its order'),
    ],
  },
  {
    type: 'Specimen', interactions: ['read', 'search-type'], versioning: 'no-version', patientData: true, searchInclude: [],
    searchParams: [
      ...common(),
      ...patientRefs('Specimen'),
      sp('Specimen', 'identifier', 'token', 'The sample barcode'),
      sp('Specimen', 'status', 'token', 'available | unavailable | unsatisfactory'),
      sp('Specimen', 'collected', 'date', 'When it was collected; prefixes eq, gt, ge, lt, le'),
      lastUpdated('the sample\'s last change'),
    ],
  },
  {
    type: 'DiagnosticReport', interactions: ['read', 'vread', 'search-type'], versioning: 'versioned', patientData: true,
    searchInclude: ['DiagnosticReport:result', 'DiagnosticReport:specimen'],
    searchParams: [
      ...common(),
      ...patientRefs('DiagnosticReport'),
      sp('clinical', 'identifier', 'token', 'The sample barcode or the order number'),
      sp('DiagnosticReport', 'status', 'token', 'final | corrected | cancelled (only released results are shown)'),
      sp('clinical', 'code', 'token', 'The test: LOINC or the lab\'s code ([system|]code)'),
      sp('clinical', 'date', 'date', 'effective[x]: when the sample was collected; prefixes eq, gt, ge, lt, le'),
      sp('DiagnosticReport', 'issued', 'date', 'When this version was released; prefixes eq, gt, ge, lt, le'),
      lastUpdated('when the current version was released'),
    ],
  },
  {
    type: 'Observation', interactions: ['read', 'vread', 'search-type'], versioning: 'versioned', patientData: true, searchInclude: [],
    searchParams: [
      ...common(),
      ...patientRefs('Observation'),
      sp('Observation', 'status', 'token', 'final | corrected | cancelled (only released results are shown)'),
      sp('clinical', 'code', 'token', 'What was observed: LOINC or the lab\'s code ([system|]code)'),
      sp('clinical', 'date', 'date', 'effective[x]: when the sample was collected; prefixes eq, gt, ge, lt, le'),
      lastUpdated('when the current version was released'),
    ],
  },
  {
    type: 'CodeSystem', interactions: ['read', 'search-type'], versioning: 'no-version', patientData: false, searchInclude: [],
    searchParams: [
      ...common(),
      sp('conformance', 'url', 'uri', 'The canonical URL of one of the lab\'s code systems'),
    ],
  },
];

export const FHIR_RESOURCE_TYPES: readonly FhirResourceType[] = FHIR_RESOURCES.map((r) => r.type);

export function isFhirResourceType(type: string): type is FhirResourceType {
  return (FHIR_RESOURCE_TYPES as readonly string[]).includes(type);
}

export function fhirResourceDescription(type: FhirResourceType): FhirResourceDescription {
  return FHIR_RESOURCES.find((r) => r.type === type)!;
}
